import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { fromProjectRoot } from '#core/platform/project-root.js';
import { requireSetting } from '#core/platform/config/settings.js';
import type { BffConfig } from './config.js';
import { API_VERSION } from '#core/http/api-version.js';
import { frameworkErrorOptions } from '#core/http/framework-errors.js';
import { lazySchemaCompilers } from '#core/http/lazy-schema-compilers.js';
import errorHandler from '#core/http/error-handler.js';
import { withRedactedUrls } from '#core/http/request-log.js';
import redisPlugin from './plugins/redis.js';
import readCachePlugin from './plugins/read-cache.js';
import readBudgetPlugin from './plugins/read-budget.js';
import healthRoutes from './routes/health/index.js';
import shareRoutes from './routes/share/index.js';
import cartRoutes from './routes/cart/index.js';
import elementRoutes from './routes/element/index.js';
import demoRoutes from './routes/demo/index.js';
import consoleRoutes from './routes/console/index.js';
import oembedRoutes from './routes/oembed/index.js';
import viewerRoutes from './routes/viewer/index.js';
import { createRequestAddressing } from './services/request-address.js';
import { createCacheHitFastPath } from './services/cache-hit-fast-path.js';

/**
 * The BFF in front of the server's public share routes (docs/bff.md, docs/share-page.md): cached
 * public reads, the share page with oEmbed, the element bundle, the demo pages and /health.
 */
export interface BuildBffOptions {
  logger?: FastifyServerOptions['logger'];
  /** Upstream and Redis health check timeout in ms (default 2000). */
  healthTimeoutMs?: number;
  /** The built element served at `/element/` (default: the repository's `dist/element`). */
  elementDir?: string;
  /** The demo pages served at `/demo/` (default: the repository's `demo`). */
  demoDir?: string;
  /** The built owner console served at `/demo/owner/` (default: the repository's `dist/console`). */
  consoleDir?: string;
}

export async function buildBffApp(config: BffConfig, options: BuildBffOptions = {}): Promise<FastifyInstance> {
  const publicKey = requireSetting(config.publicAnonKey, 'PUBLIC_ANON_KEY');
  const upstream = config.bffUpstreamUrl;
  const addressing = createRequestAddressing(config.trustProxy);
  const app = Fastify({
    // Share tokens and file signatures never reach the logs.
    logger: withRedactedUrls(options.logger ?? { level: config.logLevel }),
    // request.ip is the client only when the direct peer (a load balancer, a CDN) is trusted.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Each route's schemas are compiled on its first request, not all of them at start-up.
    ...lazySchemaCompilers(),
    ...frameworkErrorOptions(),
  });

  // Callback style: no promise per answer on the cache's hot path.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-api-version', API_VERSION);
    done(null, payload);
  });
  // The API's error handler: the same error bodies and codes (413, 415, 429...) from both.
  await app.register(errorHandler);

  await app.register(redisPlugin, { settings: config });
  await app.register(readCachePlugin, { settings: config });
  await app.register(readBudgetPlugin, { settings: config });

  const cacheHit = createCacheHitFastPath({
    readCache: app.readCache,
    readBudget: app.readBudget,
    readCacheSecret: app.readCacheSecret,
    addressing,
  });

  await app.register(healthRoutes, { upstream, timeoutMs: options.healthTimeoutMs });
  await app.register(shareRoutes, { upstream, publicKey, addressing, cacheHit });
  await app.register(cartRoutes, { upstream, publicKey });
  await app.register(elementRoutes, { root: options.elementDir ?? fromProjectRoot('dist/element') });
  await app.register(consoleRoutes, {
    root: options.consoleDir ?? fromProjectRoot('dist/console'),
    apiBase: config.consoleApiUrl ?? upstream,
  });
  await app.register(demoRoutes, { root: options.demoDir ?? fromProjectRoot('demo'), upstream, publicKey });
  await app.register(oembedRoutes);
  await app.register(viewerRoutes, { root: fromProjectRoot('bff/viewer') });

  return app;
}
