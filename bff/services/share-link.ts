import { isWellFormedShareRequest } from '../../server/core/services/public-share/share-access.js';
import { boundedMemo } from './bounded-memo.js';

/** The two ids a share link names. */
export interface ShareIds {
  projectId: string;
  token: string;
}

/**
 * The two segments of a path `/share/<a>/<b>` with nothing after them, decoded; their shape is
 * not checked (null for any other path, or a segment that does not decode).
 */
export function sharePathSegments(pathname: string): ShareIds | null {
  const segments = pathname.split('/');
  if (segments.length !== 4 || segments[0] !== '' || segments[1] !== 'share') return null;
  try {
    return { projectId: decodeURIComponent(segments[2]), token: decodeURIComponent(segments[3]) };
  } catch {
    return null;
  }
}

/**
 * The ids of a share path `/share/<projectId>/<token>` (a query after it is ignored: chat apps
 * append tracking parameters), shape-checked as the server checks them (uuid, 16-128 base64url
 * characters). null for anything else: such a path cannot name a share, and its parts never
 * reach a page.
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

/** The media ranges of an Accept header with their weights (q), lower-cased. */
function acceptRanges(accept: string): Array<{ range: string; q: number }> {
  return accept.split(',').map((part) => {
    const [range, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return { range, q: Number.isFinite(q) ? q : 0 };
  });
}

/** The weight Accept gives a media type: its own range, else `type/*`, else `*\/*`, else 0. */
function weightOf(ranges: Array<{ range: string; q: number }>, type: string): number {
  const [major] = type.split('/');
  for (const candidate of [type, `${major}/*`, '*/*']) {
    const found = ranges.find(({ range }) => range === candidate);
    if (found) return found.q;
  }
  return 0;
}

/**
 * Whether a request asks for the share page rather than the JSON payload (contract section 11):
 * Accept must weigh `text/html` above `application/json`. A browser navigation (`text/html,...,
 * *\/*;q=0.8`) does; `fetch()` (`*\/*`), `Accept: application/json` and no Accept at all keep
 * getting JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  return accept ? acceptPrefersHtml(accept) : false;
}

// Remembered: browsers send a handful of distinct Accept values, and each read asks.
const acceptPrefersHtml = boundedMemo((accept) => {
  const ranges = acceptRanges(accept);
  const html = weightOf(ranges, 'text/html');
  return html > 0 && html > weightOf(ranges, 'application/json');
});

/**
 * The origin a request reached this BFF at (`http://127.0.0.1:8080`, or the load balancer's
 * when `TRUST_PROXY` trusts it): where the share page's links point. null when the Host header
 * is not a plain host (and port).
 */
export function ownOrigin(protocol: string, host: string | undefined): string | null {
  // Only a host name or address and a port: anything else (a path, user info, spaces) would change the URL's meaning.
  if (!host || !HOST.test(host) || (protocol !== 'http' && protocol !== 'https')) return null;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?$/i;

/**
 * Origin and Referer of a read with a value naming this BFF's own origin removed: the share
 * page's own element is not an embed (contract section 11). Origin decides when present, else
 * Referer; when it names `own`, both go.
 */
export function withoutOwnOrigin(
  origin: string | undefined,
  referer: string | undefined,
  own: string | null,
): { origin?: string; referer?: string } {
  if (!own || (origin === undefined && referer === undefined)) return { origin, referer };
  return originOfUrl(origin ?? referer!) === own ? {} : { origin, referer };
}

/** The origin of a URL; null when it is not one (then it is kept, the server judges it). Remembered: embeds send the same Origin again and again. */
const originOfUrl = boundedMemo((value) => {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
});

/** A Vary value that also names Accept: the share link answers JSON or the share page by it, so caches in front must keep them apart. */
export function varyWithAccept(vary: string | undefined): string {
  if (!vary) return 'Accept';
  return /(^|,)\s*accept\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept`;
}
