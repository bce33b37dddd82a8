import { createHmac } from 'node:crypto';
import { embedOriginOf } from '#core/domain/embed-hosts.js';
import { isWellFormedShareRequest } from '#core/services/public-share/share-access.js';
import { sharePathSegments, type ShareIds } from './share-ids.js';

/** The parts of a public read its answer depends on. */
export interface ReadRequestParts {
  projectId: string;
  token: string;
  origin?: string;
  referer?: string;
  password?: string;
}

/**
 * Everything the server's answer depends on besides the stored share; the password is kept only as an
 * HMAC under `secret`. null when the request cannot name a share (the server's one 404).
 */
export function readCacheKey(parts: ReadRequestParts, secret: Buffer): string | null {
  if (!isWellFormedShareRequest(parts)) return null;
  const embed = embedOriginOf(parts.origin, parts.referer);
  const embedPart = embed === undefined ? '-' : embed === null ? '!' : `${embed.host}:${embed.port}`;
  const passwordPart =
    parts.password === undefined
      ? '-'
      : createHmac('sha256', secret).update(parts.password, 'utf8').digest('base64url');
  return `${projectPrefix(parts.projectId)}${parts.token}|${embedPart}|${passwordPart}`;
}

/**
 * The project id and token of a read the cache may answer: `GET /share/:projectId/:token`,
 * nothing after it and no query; null otherwise (the ids' shape is checked by readCacheKey).
 */
export function cacheableReadTarget(method: string | undefined, url: string | undefined): ShareIds | null {
  if (method !== 'GET' || !url || url.includes('?')) return null;
  return sharePathSegments(url);
}

/**
 * The start every key of a project's reads shares (what a share-change notice evicts), lower-cased because
 * an upper-case id reaches the same project and must be evicted with it.
 */
export const projectPrefix = (projectId: string) => `${projectId.toLowerCase()}|`;
