import type { FastifyInstance, FastifyRequest } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { PassThrough } from 'node:stream';
import { VISITOR_EVENT_LIMITS } from '#core/wire/configurator/index.js';
import { sendUpstreamUnavailable } from '../../error-body.js';

/** The route's path under the BFF, as Fastify names it. */
export const VISITOR_EVENTS_ROUTE = '/share/:projectId/:token/events';

/** A body read whole (within its limit), forwarded untouched: reply-from re-encodes JSON objects, not streams. */
class ForwardedBody extends PassThrough {
  constructor(readonly bytes: number) {
    super();
  }
}

export interface VisitorEventsProxyOptions {
  upstream: string;
  /** The public key headers and the client's address, as every proxied share request gets them. */
  upstreamHeaders(request: FastifyRequest): Record<string, string>;
}

/**
 * `POST /share/:projectId/:token/events` (docs/api.md, Visitor events), never cached: the BFF reads the body itself so
 * it refuses one over 32 KB (413) chunked or not; text/plain is accepted because sendBeacon sends it without a
 * preflight.
 */
export default async function visitorEventsProxy(
  app: FastifyInstance,
  { upstream, upstreamHeaders }: VisitorEventsProxyOptions,
) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'buffer', bodyLimit: VISITOR_EVENT_LIMITS.bodyBytes },
    (_request, body, done) => {
      const bytes = body as Buffer;
      const forwarded = new ForwardedBody(bytes.length);
      forwarded.end(bytes);
      done(null, forwarded);
    },
  );

  await app.register(httpProxy, {
    upstream,
    prefix: '/share',
    rewritePrefix: '/share',
    routes: ['/:projectId/:token/events'],
    httpMethods: ['POST'],
    // Given, so the proxy adds no body parsers of its own: this context's read the body.
    preValidation: async () => {},
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => {
        const { 'transfer-encoding': _chunked, ...rest } = headers;
        const body = request.body;
        return {
          ...rest,
          ...upstreamHeaders(request as FastifyRequest),
          'content-length': String(body instanceof ForwardedBody ? body.bytes : 0),
        };
      },
      // The page retries on its own terms (Retry-After); the BFF must not multiply load.
      retryDelay: () => null,
      onError: (reply, { error }) => {
        reply.request.log.warn({ err: error }, 'upstream request failed');
        sendUpstreamUnavailable(reply);
      },
    },
  });
}
