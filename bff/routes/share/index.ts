import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { publicCorsHeaders } from '../../../server/core/http/public-cors.js';
import { SUBMIT_BODY_LIMIT } from '../../../server/core/wire/submit-limits.js';
import { cachedRead, type UpstreamResponse } from './cached-read.js';
import { errorBody } from '../../error-body.js';

/** Options of the share routes. */
export interface ShareRouteOptions {
  /** The server the BFF fronts (`BFF_UPSTREAM_URL`). */
  upstream: string;
  /** `PUBLIC_ANON_KEY`, added to every request for the browser, which sends none. */
  publicKey: string;
}

/**
 * The public share routes, proxied to the server (`GET /share/:projectId/:token`, `POST
 * .../submit`, `POST .../model-urls`, their preflights): the public key headers and the client's
 * address are added, everything else (X-Share-Password, If-None-Match, Origin, Referer, the body)
 * passes through. Reads go through the cache (cached-read.ts). Needs the read cache and read
 * budget plugins.
 */
export default async function shareRoutes(app: FastifyInstance, { upstream, publicKey }: ShareRouteOptions) {
  const cache = cachedRead(app);

  // Callback style: no promise per request on the cache's hot path.
  app.addHook('onRequest', (request, reply, done) => {
    // The answers the BFF gives itself (304, 413, 429, 503) must be as readable to the page as the API's.
    publicCorsHeaders(request, reply);
    // Refused here rather than half-sent upstream and cut off there.
    if (Number(request.headers['content-length']) > SUBMIT_BODY_LIMIT) {
      reply.header('connection', 'close');
      reply.code(413).send(errorBody('payload_too_large', 'The request body is too large.'));
      return;
    }
    done();
  });

  await app.register(httpProxy, {
    upstream,
    prefix: '/share',
    rewritePrefix: '/share',
    preHandler: cache.preHandler,
    // The casts below: reply-from's types cover HTTP/2 servers too; the BFF serves HTTP/1 only.
    replyOptions: {
      rewriteRequestHeaders: (request, headers) =>
        cache.upstreamHeaders(request as FastifyRequest, {
          ...headers,
          apikey: publicKey,
          authorization: `Bearer ${publicKey}`,
          // Overwritten, never appended: a client must not pick the address it is rate-limited by.
          'x-forwarded-for': request.ip,
        }),
      onResponse: (request, reply, res) => {
        cache.onResponse(request as FastifyRequest, reply as FastifyReply, res as unknown as UpstreamResponse).catch((error: unknown) => {
          request.log.warn({ err: error }, 'upstream answer failed midway');
          if (!reply.sent) reply.code(503).send(errorBody('unavailable', 'The API is not reachable right now.'));
        });
      },
      // The client retries on its own terms (Retry-After); the BFF must not multiply load.
      retryDelay: () => null,
      onError: (reply, { error }) => {
        reply.request.log.warn({ err: error }, 'upstream request failed');
        reply.code(503).send(errorBody('unavailable', 'The API is not reachable right now.'));
      },
    },
  });
}
