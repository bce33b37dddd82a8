import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { consoleContentSecurityPolicy } from './content-security-policy.js';

/** Options of the owner console routes. */
export interface ConsoleRouteOptions {
  /** The built console (`npm run build`): `index.html` and hashed chunks in `assets/`. */
  root: string;
  /** Where the console's browser calls the owner API (CONSOLE_API_URL, else the BFF's upstream). */
  apiBase: string;
}

/**
 * The owner console at `/demo/owner/` and its `config.json` (where the API is). The page holds an owner token,
 * so it may not be framed, sends no Referer and has a Content-Security-Policy of its own.
 */
export default async function consoleRoutes(app: FastifyInstance, { root, apiBase }: ConsoleRouteOptions) {
  const contentSecurityPolicy = consoleContentSecurityPolicy(apiBase);
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      reply
        .header('content-security-policy', contentSecurityPolicy)
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff');
    });
    scope.get('/demo/owner/config.json', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return { apiBase };
    });
    // Read from disk per request: without a build the path is a 404, and a later build needs no restart.
    await scope.register(fastifyStatic, {
      root,
      prefix: '/demo/owner/',
      redirect: true,
      decorateReply: false,
      cacheControl: false,
      setHeaders(reply, filePath) {
        reply.header(
          'cache-control',
          filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  });
}
