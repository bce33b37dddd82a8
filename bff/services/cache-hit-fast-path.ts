import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import { API_VERSION } from '../../server/core/http/api-version.js';
import { redactUrl } from '../../server/core/http/request-log.js';
import { etagMatches } from '../../server/core/domain/public-payload.js';
import type { KeptRead, ReadCache } from './read-cache.js';
import { boundedMemo } from './bounded-memo.js';
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
 * A kept answer's headers as the flat `[name, value, ...]` list `writeHead` takes, in the full
 * path's order and with its values, and where the values each request sets go (-1: not sent).
 */
interface HeaderTemplate {
  pairs: ReadonlyArray<string | number>;
  origin: number;
  limit: number;
  remaining: number;
  reset: number;
}

/**
 * The template of one kept answer, as a 200 or as the BFF's own 304, for requests with or
 * without an Origin to echo. Built the way the full path builds its answer (CORS first, then the
 * budget, the kept headers, the ETag), so the two stay alike.
 */
function headerTemplate(kept: KeptRead, withOrigin: boolean, notModified: boolean): HeaderTemplate {
  const named: Record<string, string | number> = Object.assign(
    publicCorsHeaderValues(withOrigin ? 'origin' : undefined),
    rateLimitHeaderValues({ limit: 0, remaining: 0, resetSeconds: 0 }),
    kept.headers,
  );
  named.vary = varyWithAccept(named.vary as string | undefined);
  named.etag = kept.etag;
  named['x-api-version'] = API_VERSION;
  if (!notModified) named['content-length'] = kept.body.byteLength;
  const names = Object.keys(named);
  const pairs = names.flatMap((name) => [name, named[name]]);
  const valueOf = (name: string) => (names.includes(name) ? 2 * names.indexOf(name) + 1 : -1);
  return {
    pairs,
    origin: valueOf('access-control-allow-origin'),
    limit: valueOf('ratelimit-limit'),
    remaining: valueOf('ratelimit-remaining'),
    reset: valueOf('ratelimit-reset'),
  };
}

/** The four templates of a kept answer, built on its first hit (indexed: origin ? 2 : 0, + 1 for a 304). */
const templates = new WeakMap<KeptRead, HeaderTemplate[]>();
function templateFor(kept: KeptRead, withOrigin: boolean, notModified: boolean): HeaderTemplate {
  let built = templates.get(kept);
  if (!built) templates.set(kept, (built = []));
  const index = (withOrigin ? 2 : 0) + (notModified ? 1 : 0);
  return (built[index] ??= headerTemplate(kept, withOrigin, notModified));
}

/**
 * The read cache's hot path, below Fastify's routing: a `GET /share/:projectId/:token` whose kept
 * answer is current, for a client this process already holds read budget for, is written
 * straight to the socket, with the very status, body and headers the full path gives it
 * (test/bff/cache-hit-fast-path.test.ts compares the two). Everything else (a miss, a stale
 * entry, a budget slice to take from Redis, a refusal, the share page, HEAD, a body, a query)
 * returns false and goes through Fastify as before. Fastify's request log does not see these
 * requests, so the fast path writes its "request completed" line itself (the token masked).
 *
 * Each hit is a few Map lookups: the cache key of a URL with its Origin and Referer is
 * remembered (not when a password is sent: the key keeps only its HMAC, and so must the
 * memory), and so are each kept answer's headers.
 */
export function createCacheHitFastPath({
  readCache,
  readBudget,
  readCacheSecret,
  addressing,
  log,
}: CacheHitFastPathOptions) {
  // pino's check; Fastify's stand-in logger (logger: false) has none and logs nothing.
  const logsRequests = () =>
    typeof (log as Partial<Logger>).isLevelEnabled === 'function' && (log as Logger).isLevelEnabled('info');
  const keyOf = (
    url: string,
    origin: string | undefined,
    referer: string | undefined,
    password: string | undefined,
  ) => {
    const target = cacheableReadTarget('GET', url);
    return target && readCacheKey({ ...target, origin, referer, password }, readCacheSecret);
  };
  // Line breaks cannot occur in a URL or a header value; a carriage return stands for a header not sent.
  const rememberedKeyOf = boundedMemo((request) => {
    const [url, origin, referer] = request.split('\n').map((part) => (part === '\r' ? undefined : part));
    return keyOf(url!, origin, referer, undefined);
  });

  return function answerCacheHit(req: IncomingMessage, res: ServerResponse): boolean {
    const { headers, url } = req;
    if (req.method !== 'GET' || !url?.startsWith('/share/')) return false;
    if (
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      prefersHtml(headers.accept)
    )
      return false;
    let origin = first(headers.origin);
    let referer = first(headers.referer);
    if (origin !== undefined || referer !== undefined)
      ({ origin, referer } = withoutOwnOrigin(origin, referer, addressing.ownOrigin(req)));
    const password = first(headers['x-share-password']);
    const key =
      password === undefined
        ? rememberedKeyOf(`${url}\n${origin ?? '\r'}\n${referer ?? '\r'}`)
        : keyOf(url, origin, referer, password);
    if (!key) return false;
    const found = readCache.lookup(key);
    if (!found?.current) return false;
    const ip = addressing.clientIp(req);
    const budget = ip === undefined ? undefined : readBudget.spendIfHeld(ip);
    if (!budget) return false;

    const { kept } = found;
    const notModified = etagMatches(first(headers['if-none-match']), kept.etag);
    const template = templateFor(kept, origin !== undefined, notModified);
    const pairs = template.pairs.slice();
    if (template.origin >= 0) pairs[template.origin] = origin!;
    pairs[template.limit] = budget.limit;
    pairs[template.remaining] = budget.remaining;
    pairs[template.reset] = budget.resetSeconds;
    res.writeHead(notModified ? 304 : 200, pairs as Array<string | number>);
    res.end(notModified ? undefined : kept.body);
    if (logsRequests()) {
      // Fastify's "request completed" line, which it cannot write for a request it never saw; `req` is
      // shaped for the logger's request serializer (request-log.ts), which masks the token.
      log.info(
        {
          req: { method: 'GET', url: redactUrl(url), hostname: headers.host, ip, socket: req.socket },
          res: { statusCode: res.statusCode },
          cache: 'hit',
        },
        'request completed',
      );
    }
    return true;
  };
}

export type CacheHitFastPath = ReturnType<typeof createCacheHitFastPath>;
