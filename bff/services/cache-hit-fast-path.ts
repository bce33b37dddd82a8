import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION } from '#core/http/api-version.js';
import { etagMatches } from '#core/domain/public-payload.js';
import { publicCorsHeaderValues } from '#core/http/public-cors.js';
import { readBudgetExceeded, readBudgetHeaders, type ReadBudget } from '#core/services/public-share/read-budget.js';
import type { HeaderTemplate, KeptRead, ReadCache } from './read-cache.js';
import type { RequestAddressing } from './request-address.js';
import { cacheableReadTarget, readCacheKey } from './read-cache-key.js';
import { prefersHtml } from './prefers-html.js';
import { varyWithAccept } from './vary-with-accept.js';
import { withoutOwnOrigin } from './own-origin.js';

/** What the fast path needs of the BFF. */
export interface CacheHitFastPathOptions {
  readCache: ReadCache;
  readBudget: ReadBudget;
  readCacheSecret: Buffer;
  addressing: RequestAddressing;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The template of one kept answer (200 or the BFF's own 304), built once per kept answer; RateLimit
 * headers are left out when Redis did not count the read.
 */
function headerTemplate(kept: KeptRead, withOrigin: boolean, notModified: boolean, counted: boolean): HeaderTemplate {
  const named: Record<string, string | number> = Object.assign(
    publicCorsHeaderValues(withOrigin ? 'origin' : undefined),
    counted ? readBudgetHeaders({ limit: 0, remaining: 0, resetSeconds: 0 }) : {},
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

/** One of a kept answer's eight templates, built on first use and kept with the answer itself. */
function templateFor(kept: KeptRead, withOrigin: boolean, notModified: boolean, counted: boolean): HeaderTemplate {
  const index = (withOrigin ? 4 : 0) + (notModified ? 2 : 0) + (counted ? 1 : 0);
  return (kept.templates[index] ??= headerTemplate(kept, withOrigin, notModified, counted));
}

/**
 * Answers a current cache hit from memory once the read budget allows, from the share routes' onRequest hook
 * (routes/share/index.ts); everything else goes on to the proxy.
 */
export function createCacheHitFastPath({
  readCache,
  readBudget,
  readCacheSecret,
  addressing,
}: CacheHitFastPathOptions) {
  /** True when the hit (or its refusal) is answered here. */
  return function answer(request: FastifyRequest, reply: FastifyReply): boolean {
    const req = request.raw;
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
    const target = cacheableReadTarget('GET', url);
    const password = first(headers['x-share-password']);
    // A literal, not `{ ...target, origin }`: V8 copies a spread with added fields slowly (microseconds).
    const key =
      target &&
      readCacheKey({ projectId: target.projectId, token: target.token, origin, referer, password }, readCacheSecret);
    if (!key) return false;
    const found = readCache.lookup(key);
    if (!found?.current) return false;
    const ip = addressing.clientIp(req);
    if (ip === undefined) return false;

    const { kept } = found;
    const notModified = etagMatches(first(headers['if-none-match']), kept.etag);
    void readBudget.spend(ip).then((budget) => {
      if (!budget.allowed) return reply.send(readBudgetExceeded(budget));
      // Written as a whole from the kept header list: Fastify's reply and onSend hooks would build it anew.
      reply.hijack();
      const template = templateFor(kept, origin !== undefined, notModified, budget.remaining !== undefined);
      const pairs = template.pairs.slice();
      if (template.origin >= 0) pairs[template.origin] = origin!;
      if (budget.remaining !== undefined) {
        pairs[template.limit] = budget.limit;
        pairs[template.remaining] = budget.remaining;
        pairs[template.reset] = budget.resetSeconds;
      }
      reply.raw.writeHead(notModified ? 304 : 200, pairs as Array<string | number>);
      reply.raw.end(notModified ? undefined : kept.body);
      // A hijacked reply gets no "request completed" line from Fastify: written here, marked as a hit.
      reply.log.info({ res: reply, responseTime: reply.elapsedTime, cache: 'hit' }, 'request completed');
    });
    return true;
  };
}

export type CacheHitFastPath = ReturnType<typeof createCacheHitFastPath>;
