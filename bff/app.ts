import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { requireSetting } from '../server/core/platform/config/settings.js';
import type { BffConfig } from './config.js';
import { API_VERSION } from '../server/core/http/api-version.js';
import { frameworkErrorOptions } from '../server/core/http/framework-errors.js';
import errorHandler from '../server/core/http/error-handler.js';
import { withRedactedUrls } from '../server/core/http/request-log.js';
import { publicCorsHeaders } from '../server/core/http/public-cors.js';
import { SUBMIT_BODY_LIMIT } from '../server/core/wire/submit-limits.js';
import { withTimeout } from '../server/core/platform/deadline.js';

/**
 * The backend-for-frontend in front of the server's public share routes. Browsers send no key
 * to the BFF: it adds the public key headers and the client's address, and passes everything
 * else (X-Share-Password, If-None-Match, Origin, Referer, the body) through unchanged.
 * The cache, the element bundle and the demo join this app with their own issues.
 */
export interface BuildBffOptions {
  logger?: FastifyServerOptions['logger'];
  /** Upstream health check timeout in ms (default 2000). */
  healthTimeoutMs?: number;
}

const errorBody = (error: string, message: string) => ({ success: false, error, message });

export async function buildBffApp(config: BffConfig, options: BuildBffOptions = {}): Promise<FastifyInstance> {
  const publicKey = requireSetting(config.publicAnonKey, 'PUBLIC_ANON_KEY');
  const upstream = config.bffUpstreamUrl;
  const app = Fastify({
    // Share tokens and file signatures never reach the logs.
    logger: withRedactedUrls(options.logger ?? { level: config.logLevel }),
    // request.ip is the client only when the direct peer (a load balancer, a CDN) is trusted.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    ...frameworkErrorOptions(),
  });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-api-version', API_VERSION);
  });
  // The API's error handler: the same error bodies and codes (413, 415, 429...) from both.
  await app.register(errorHandler);

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/share/')) return;
    // The answers the BFF gives itself (413, 503) must be as readable to the page as the API's.
    publicCorsHeaders(request, reply);
    // Refused here rather than half-sent upstream and cut off there.
    if (Number(request.headers['content-length']) > SUBMIT_BODY_LIMIT) {
      reply.header('connection', 'close');
      return reply.code(413).send(errorBody('payload_too_large', 'The request body is too large.'));
    }
  });

  // Probed every few seconds: a healthy answer is not worth a log line each time (warn and above only).
  app.get('/health', { logLevel: 'warn' }, async (request, reply) => {
    let failing = ['server'];
    try {
      const upstreamHealth = await withTimeout(
        async (signal) => {
          const res = await fetch(`${upstream}/health`, { signal });
          // The server names what it is missing (postgres, redis); pass that on.
          return { status: res.status, body: (await res.json().catch(() => ({}))) as { failing?: unknown } };
        },
        options.healthTimeoutMs ?? 2000,
        'the server did not answer its health check in time',
      );
      if (upstreamHealth.status === 200) return { success: true, status: 'ok' };
      const named = upstreamHealth.body.failing;
      if (Array.isArray(named) && named.length > 0) failing = named.map(String);
    } catch {
      // Unreachable or too slow: the server is what is failing.
    }
    request.log.warn({ failing }, 'health check: upstream is not healthy');
    return reply.code(503).send({ ...errorBody('unavailable', `Unavailable: ${failing.join(', ')}`), status: 'degraded', failing });
  });

  await app.register(httpProxy, {
    upstream,
    prefix: '/share',
    rewritePrefix: '/share',
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        apikey: publicKey,
        authorization: `Bearer ${publicKey}`,
        // Overwritten, never appended: a client must not pick the address it is rate-limited by.
        'x-forwarded-for': request.ip,
      }),
      // The client retries on its own terms (Retry-After); the BFF must not multiply load.
      retryDelay: () => null,
      onError: (reply, { error }) => {
        reply.request.log.warn({ err: error }, 'upstream request failed');
        reply.code(503).send(errorBody('unavailable', 'The API is not reachable right now.'));
      },
    },
  });
  return app;
}
