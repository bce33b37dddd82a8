import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { publicCorsHeaders } from '#core/http/public-cors.js';
import { SUBMIT_BODY_LIMIT } from '#core/wire/submit-limits.js';
import { CONFIGURATION_BODY_LIMIT } from '#core/wire/configurations.js';
import { cachedRead, type UpstreamResponse } from './cached-read.js';
import { isPageRequest, sharePage } from './page.js';
import { errorBody, sendUpstreamUnavailable } from '../../error-body.js';
import { varyWithAccept } from '../../services/vary-with-accept.js';
import { withoutOwnOrigin } from '../../services/own-origin.js';
import type { RequestAddressing } from '../../services/request-address.js';
import type { CacheHitFastPath } from '../../services/cache-hit-fast-path.js';
import { VISITOR_EVENT_LIMITS } from '#core/wire/configurator/index.js';
import visitorEventsProxy, { VISITOR_EVENTS_ROUTE } from './events.js';

/** Options of the share routes. */
export interface ShareRouteOptions {
  /** The server the BFF fronts (`BFF_UPSTREAM_URL`). */
  upstream: string;
  /** `PUBLIC_ANON_KEY`, added to every request for the browser, which sends none. */
  publicKey: string;
  /** How a request's origin is read under `TRUST_PROXY` (the cache's fast path reads it the same way). */
  addressing: RequestAddressing;
  /** The answer to current cache hits, from memory. */
  cacheHit: CacheHitFastPath;
}

const CONFIGURATIONS_ROUTE = /^\/share\/[^/?]+\/[^/?]+\/configurations(?:\?|$)/;

/** The largest body the server takes on the route: one more is refused by the BFF with the same 413. */
function bodyLimitOf(request: FastifyRequest): number {
  if (request.routeOptions.url === VISITOR_EVENTS_ROUTE) return VISITOR_EVENT_LIMITS.bodyBytes;
  if (CONFIGURATIONS_ROUTE.test(request.url)) return CONFIGURATION_BODY_LIMIT;
  return SUBMIT_BODY_LIMIT;
}

/**
 * The BFF's own share page is not an embed: its calls reach the server as a headless client's, so a share
 * restricted to other hosts still works on its own page (docs/share-page.md).
 */
function dropOwnOrigin(request: FastifyRequest, addressing: RequestAddressing) {
  const { origin, referer } = request.headers;
  if (origin === undefined && referer === undefined) return;
  const kept = withoutOwnOrigin(origin, referer, addressing.ownOrigin(request.raw));
  if (kept.origin === undefined && kept.referer === undefined) {
    delete request.headers.origin;
    delete request.headers.referer;
  }
}

/**
 * The public share routes, proxied with the public key and the client's address added, so the server applies
 * its checks to the real client. Needs the read cache and read budget plugins.
 */
export default async function shareRoutes(
  app: FastifyInstance,
  { upstream, publicKey, addressing, cacheHit }: ShareRouteOptions,
) {
  const cache = cachedRead(app);
  const answerPage = sharePage(app);

  // Callback style: no promise per request on the cache's hot path.
  app.addHook('onRequest', (request, reply, done) => {
    dropOwnOrigin(request, addressing);
    // The answers the BFF gives itself (304, 413, 429, 503) must be as readable to the page as the API's.
    publicCorsHeaders(request, reply);
    // Refused here rather than half-sent upstream and cut off there.
    const length = request.headers['content-length'];
    if (length !== undefined && Number(length) > bodyLimitOf(request)) {
      reply.header('connection', 'close');
      reply.code(413).send(errorBody('payload_too_large', 'The request body is too large.'));
      return;
    }
    // A current hit is answered here, before the proxy's hooks: the cache's hot path.
    if (cacheHit(request, reply)) return;
    done();
  });

  // The same path answers JSON or the share page by Accept: any cache in front must keep them apart.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') {
      const vary = reply.getHeader('vary');
      reply.header(
        'vary',
        varyWithAccept(Array.isArray(vary) ? vary.join(', ') : vary === undefined ? undefined : String(vary)),
      );
    }
    done(null, payload);
  });

  const keyHeaders = (request: FastifyRequest) => ({
    apikey: publicKey,
    authorization: `Bearer ${publicKey}`,
    // Overwritten, never appended: a client must not pick the address it is rate-limited by.
    'x-forwarded-for': request.ip,
  });
  await app.register(visitorEventsProxy, { upstream, upstreamHeaders: keyHeaders });

  await app.register(httpProxy, {
    upstream,
    prefix: '/share',
    rewritePrefix: '/share',
    preHandler: (request, reply, done) => {
      if (isPageRequest(request)) {
        answerPage(request, reply).catch((error: unknown) => reply.send(error));
        return;
      }
      cache.preHandler(request, reply, done);
    },
    // The casts below: reply-from's types cover HTTP/2 servers too; the BFF serves HTTP/1 only.
    replyOptions: {
      rewriteRequestHeaders: (request, headers) =>
        cache.upstreamHeaders(request as FastifyRequest, { ...headers, ...keyHeaders(request as FastifyRequest) }),
      onResponse: (request, reply, res) => {
        cache
          .onResponse(request as FastifyRequest, reply as FastifyReply, res as unknown as UpstreamResponse)
          .catch((error: unknown) => {
            request.log.warn({ err: error }, 'upstream answer failed midway');
            if (!reply.sent) sendUpstreamUnavailable(reply);
          });
      },
      // The client retries on its own terms (Retry-After); the BFF must not multiply load.
      retryDelay: () => null,
      onError: (reply, { error }) => {
        reply.request.log.warn({ err: error }, 'upstream request failed');
        if (cache.serveStale(reply.request as FastifyRequest, reply as FastifyReply)) return;
        sendUpstreamUnavailable(reply);
      },
    },
  });
}
