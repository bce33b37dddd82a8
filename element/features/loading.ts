import { readShare, type ReadResult, type ShareTarget } from './api.js';

/**
 * Which share an element shows, from its attributes, and the read with the one retry a 429
 * earns. The element turns the result into its `state`.
 */

/** The longest Retry-After the element waits for before its single retry, in seconds. */
const MAX_RETRY_WAIT_S = 60;

/** The attributes that name a share (`share-url` stands for the two ids). */
export interface ShareAttributes {
  projectId: string;
  token: string;
  shareUrl: string;
  apiBase: string;
}

/**
 * The share the attributes name, or null when they name none (no ids, a share-url without
 * `/share/<projectId>/<token>`). `defaultApiBase` is the origin the script came from.
 */
export function shareTarget(attributes: ShareAttributes, defaultApiBase: string): ShareTarget | null {
  let { projectId, token } = attributes;
  if (attributes.shareUrl) {
    let path: string;
    try {
      path = new URL(attributes.shareUrl, document.baseURI).pathname;
    } catch {
      return null;
    }
    const match = /\/share\/([^/]+)\/([^/]+)\/?$/.exec(path);
    if (!match) return null;
    [projectId, token] = [decodeURIComponent(match[1]), decodeURIComponent(match[2])];
  }
  if (!projectId || !token) return null;
  return { apiBase: attributes.apiBase || defaultApiBase, projectId, token };
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * The public read; a 429 waits for its Retry-After (at most {@link MAX_RETRY_WAIT_S}) and retries
 * once, so a busy share never turns into a request loop.
 */
export async function loadShare(target: ShareTarget, password?: string): Promise<ReadResult> {
  const first = await readShare(target, password);
  if (first.kind !== 'rate-limited') return first;
  await sleep(Math.min(first.retryAfter, MAX_RETRY_WAIT_S));
  return readShare(target, password);
}
