import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import { API_VERSION } from '../../server/core/http/api-version.js';
import { redactUrl } from '../../server/core/http/request-log.js';
import { etagMatches } from '../../server/core/domain/public-payload.js';
import type { ReadCache } from './read-cache.js';
import { rateLimitHeaderValues, type ReadBudget } from './read-budget.js';
import type { RequestAddressing } from './request-address.js';
import { cacheableReadTarget, readCacheKey } from './read-cache-key.js';
import { prefersHtml, varyWithAccept, withoutOwnOrigin } from './share-link.js';
import { publicCorsHeaderValues } from '../../server/core/http/public-cors.js';

/** What the fast path needs of the BFF. */
export interface CacheHitFastPathOptions {
  readCache: ReadCache;
  readBudget: ReadBudget;
  readCacheSecret: Buffer;
  addressing: RequestAddressing;
  log: FastifyBaseLogger;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The read cache's hot path, below Fastify's routing: a `GET /share/:projectId/:token` whose kept
 * answer is current, for a client this process already holds read budget for, is written
 * straight to the socket, with the very status, body and headers the full path gives it
 * (test/bff/cache-hit-fast-path.test.ts compares the two). Everything else (a miss, a stale
 * entry, a budget slice to take from Redis, a refusal, the share page, HEAD, a body, a query)
 * returns false and goes through Fastify as before. Fastify's request log does not see these
 * requests, so the fast path writes its "request completed" line itself (the token masked).
 */
export function createCacheHitFastPath({ readCache, readBudget, readCacheSecret, addressing, log }: CacheHitFastPathOptions) {
  // pino's check; Fastify's stand-in logger (logger: false) has none and logs nothing.
  const logsRequests = () => typeof (log as Partial<Logger>).isLevelEnabled === 'function' && (log as Logger).isLevelEnabled('info');
  return function answerCacheHit(req: IncomingMessage, res: ServerResponse): boolean {
    const target = cacheableReadTarget(req.method, req.url);
    if (!target) return false;
    const { headers } = req;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined || prefersHtml(headers.accept)) return false;
    let origin = first(headers.origin);
    let referer = first(headers.referer);
    if (origin !== undefined || referer !== undefined) ({ origin, referer } = withoutOwnOrigin(origin, referer, addressing.ownOrigin(req)));
    const key = readCacheKey({ ...target, origin, referer, password: first(headers['x-share-password']) }, readCacheSecret);
    if (!key) return false;
    const found = readCache.lookup(key);
    if (!found?.current) return false;
    const ip = addressing.clientIp(req);
    const budget = ip === undefined ? undefined : readBudget.spendIfHeld(ip);
    if (!budget) return false;

    const { kept } = found;
    const notModified = etagMatches(first(headers['if-none-match']), kept.etag);
    // The order and values of the full path: CORS first, then the budget, the kept headers, the ETag.
    const out: Record<string, string | number> = Object.assign(publicCorsHeaderValues(origin), rateLimitHeaderValues(budget), kept.headers);
    out.vary = varyWithAccept(out.vary as string | undefined);
    out.etag = kept.etag;
    out['x-api-version'] = API_VERSION;
    if (notModified) {
      res.writeHead(304, out);
      res.end();
    } else {
      out['content-length'] = kept.body.byteLength;
      res.writeHead(200, out);
      res.end(kept.body);
    }
    if (logsRequests()) {
      // Fastify's "request completed" line, which it cannot write for a request it never saw; `req` is
      // shaped for the logger's request serializer (request-log.ts), which masks the token.
      log.info({ req: { method: 'GET', url: redactUrl(req.url!), hostname: headers.host, ip, socket: req.socket }, res: { statusCode: res.statusCode }, cache: 'hit' }, 'request completed');
    }
    return true;
  };
}

export type CacheHitFastPath = ReturnType<typeof createCacheHitFastPath>;
