import { isWellFormedShareRequest } from '#core/services/public-share/share-access.js';

/** The two ids a share link names. */
export interface ShareIds {
  projectId: string;
  token: string;
}

/** A path segment decoded; most have nothing to decode, and skip the decoder (a share read's hot path). */
const decoded = (segment: string) => (segment.includes('%') ? decodeURIComponent(segment) : segment);

/**
 * The two segments of a path `/share/<a>/<b>` with nothing after them, decoded; their shape is
 * not checked (null for any other path, or a segment that does not decode).
 */
export function sharePathSegments(pathname: string): ShareIds | null {
  const segments = pathname.split('/');
  if (segments.length !== 4 || segments[0] !== '' || segments[1] !== 'share') return null;
  try {
    return { projectId: decoded(segments[2]), token: decoded(segments[3]) };
  } catch {
    return null;
  }
}

/**
 * The ids of `/share/<projectId>/<token>`, shape-checked as the server checks them; a query is ignored
 * because chat apps append tracking parameters. null when the path cannot name a share.
 */
export function shareIdsOfPath(path: string): ShareIds | null {
  const [pathname] = path.split('?', 1);
  const ids = sharePathSegments(pathname);
  return ids && isWellFormedShareRequest(ids) ? ids : null;
}

/** The ids of a share link (`https://<app_domain>/share/<projectId>/<token>`, any host); null when it is not one. */
export function shareIdsOfUrl(value: string): ShareIds | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return shareIdsOfPath(url.pathname);
}
