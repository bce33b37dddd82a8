import type { FastifyInstance } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { publicCorsHeaders } from '#core/http/public-cors.js';
import { sendUpstreamUnavailable } from '../../error-body.js';

export interface CartRouteOptions {
  upstream: string;
  /** `PUBLIC_ANON_KEY`: a browser reading a configuration sends none. */
  publicKey: string;
}

/**
 * The cart's reads through the BFF (docs/cart.md): the JWK Set a shop verifies tokens against, and
 * `GET /configurations/:id` with the public key added. Creating one goes through the share routes.
 */
export default async function cartRoutes(app: FastifyInstance, { upstream, publicKey }: CartRouteOptions) {
  // The answers the BFF gives itself (503) must be as readable to a page as the API's.
  app.addHook('onRequest', async (request, reply) => publicCorsHeaders(request, reply));
  for (const path of ['/.well-known/jwks.json', '/configurations']) {
    await app.register(httpProxy, {
      upstream,
      prefix: path,
      rewritePrefix: path,
      httpMethods: ['GET', 'HEAD', 'OPTIONS'],
      replyOptions: {
        rewriteRequestHeaders: (request, headers) => ({
          ...headers,
          apikey: publicKey,
          authorization: `Bearer ${publicKey}`,
          // Overwritten, never appended: a client must not pick the address it is rate-limited by.
          'x-forwarded-for': request.ip,
        }),
        retryDelay: () => null,
        onError: (reply) => sendUpstreamUnavailable(reply),
      },
    });
  }
}
