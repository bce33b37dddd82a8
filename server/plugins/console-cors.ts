import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * CORS for the owner API, for the CONSOLE_ORIGINS only (the console is served from the BFF's origin); other origins
 * get no CORS headers. Public share routes and signed files keep their own CORS, since any page may embed a share.
 */
const PUBLIC_PATHS = /^\/(share|files)(\/|\?|$)/;
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'authorization, content-type, x-workspace-id, x-api-key, if-match';
const EXPOSE_HEADERS = 'ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Api-Version';

export default fp(
  async function consoleCors(app: FastifyInstance) {
    const allowed = new Set(app.deps.config.consoleOrigins);
    if (allowed.size === 0) return;

    // A root hook: it runs before routing's 404 too, so a preflight needs no OPTIONS route.
    // Callback style and the public paths first: it runs in front of the public read as well.
    app.addHook('onRequest', (request, reply, done) => {
      if (PUBLIC_PATHS.test(request.url)) return done();
      reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      if (typeof origin !== 'string' || !allowed.has(origin)) return done();
      reply.header('access-control-allow-origin', origin);
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
        reply
          .code(204)
          .header('access-control-allow-methods', ALLOW_METHODS)
          .header('access-control-allow-headers', ALLOW_HEADERS)
          .header('access-control-max-age', '600')
          .send();
        return;
      }
      reply.header('access-control-expose-headers', EXPOSE_HEADERS);
      done();
    });
  },
  { name: 'console-cors' },
);
