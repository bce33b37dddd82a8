import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { etagMatches } from '#core/domain/public-payload.js';
import { KEPT_HEADERS, type KeptRead } from '../../services/read-cache.js';
import { cacheableReadTarget, readCacheKey } from '../../services/read-cache-key.js';
import { readBudgetExceeded, readBudgetHeaders } from '#core/services/public-share/read-budget.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** A public read the cache may keep the answer of, on its way to the server. */
    cachedRead?: CachedReadState;
  }
}

interface CachedReadState {
  key: string;
  /** The feed's number when the request left: a notice heard since forbids keeping the answer. */
  heard: number;
  /** The stale answer being revalidated with its ETag. */
  kept?: KeptRead;
  /** The client's own If-None-Match (the server is asked with the kept ETag, or none). */
  ifNoneMatch?: string;
}

/** What @fastify/reply-from hands to `onResponse` (its types call it a ServerResponse). */
export interface UpstreamResponse {
  statusCode: number;
  headers: IncomingHttpHeaders | Record<string, unknown>;
  stream: Readable;
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Answers with a kept read: 304 when the client already holds it, else the kept 200. */
function sendKept(reply: FastifyReply, kept: KeptRead, ifNoneMatch: string | undefined) {
  // Copied from an upstream answer that may have had another body, or none.
  reply.removeHeader('content-length').removeHeader('transfer-encoding');
  reply.headers(kept.headers).header('etag', kept.etag);
  if (etagMatches(ifNoneMatch, kept.etag)) return reply.code(304).send();
  return reply.code(200).send(kept.body);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The read cache's hooks around the proxy of `GET /share/:projectId/:token` (docs/bff.md):
 * a stale entry is revalidated with its ETag; a 304 refreshes it and a refusal drops it.
 */
export function cachedRead(app: FastifyInstance) {
  const { readCache, readCacheSecret } = app;

  // Callback style: no promise per request. Current hits were answered before (the share routes' onRequest hook).
  function preHandler(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const target = cacheableReadTarget(request.method, request.url);
    const key =
      target &&
      readCacheKey(
        {
          ...target,
          origin: header(request, 'origin'),
          referer: header(request, 'referer'),
          password: header(request, 'x-share-password'),
        },
        readCacheSecret,
      );
    if (!key) return done();
    // A current entry the hit's answer did not take (a GET with a body) is revalidated like a stale one.
    const kept = readCache.lookup(key)?.kept;
    request.cachedRead = { key, heard: readCache.heard, kept, ifNoneMatch: header(request, 'if-none-match') };
    done();
  }

  /**
   * The server cannot answer (unreachable, or a 5xx): a kept answer the feed still vouches for is served stale
   * rather than refused. Its read is counted once: here, unless the server's answer shows it counted it.
   * True when the reply is taken.
   */
  function serveStale(request: FastifyRequest, reply: FastifyReply, countedUpstream = false): boolean {
    const read = request.cachedRead;
    const kept = read?.kept;
    if (!read || !kept || !readCache.vouchesFor(read.key, kept)) return false;
    reply.removeHeader('retry-after');
    if (countedUpstream) {
      sendKept(reply, kept, read.ifNoneMatch);
      return true;
    }
    void app.readBudget.spend(request.ip).then((budget) => {
      if (!budget.allowed) return reply.send(readBudgetExceeded(budget));
      if (budget.remaining !== undefined) reply.headers(readBudgetHeaders(budget));
      return sendKept(reply, kept, read.ifNoneMatch);
    });
    return true;
  }

  return {
    preHandler,
    serveStale,
    /** The If-None-Match the server is asked with: the kept ETag, or none so that a 200 comes back to keep. */
    upstreamHeaders(request: FastifyRequest, headers: Record<string, string | string[] | undefined>) {
      const read = request.cachedRead;
      if (!read) return headers;
      // The body is kept as is and served to any client: no encoding negotiated for one.
      const { 'if-none-match': _clientTag, 'accept-encoding': _encoding, ...rest } = headers;
      return read.kept ? { ...rest, 'if-none-match': read.kept.etag } : rest;
    },

    async onResponse(request: FastifyRequest, reply: FastifyReply, res: UpstreamResponse) {
      const read = request.cachedRead;
      if (!read) return reply.send(res.stream);
      if (res.statusCode === 304 && read.kept) {
        res.stream.resume();
        readCache.confirm(read.key, read.kept, read.heard);
        return sendKept(reply, read.kept, read.ifNoneMatch);
      }
      // The server spends the read budget before it needs Postgres; its RateLimit headers show it did.
      if (res.statusCode >= 500 && serveStale(request, reply, res.headers['ratelimit-remaining'] !== undefined)) {
        res.stream.resume();
        return;
      }
      const etag = res.headers.etag;
      if (res.statusCode !== 200 || typeof etag !== 'string') {
        // The server no longer gives this answer (404 after a disable, 401, 403...).
        if (read.kept) readCache.delete(read.key);
        return reply.send(res.stream);
      }
      const kept: KeptRead = {
        body: await readAll(res.stream),
        etag,
        headers: {},
        confirmedAt: Date.now(),
        templates: [],
      };
      for (const name of KEPT_HEADERS) {
        const value = res.headers[name];
        if (typeof value === 'string') kept.headers[name] = value;
      }
      readCache.store(read.key, kept, read.heard);
      return sendKept(reply, kept, read.ifNoneMatch);
    },
  };
}
