import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from './deps.js';
import errorHandler from './core/http/error-handler.js';
import { frameworkErrorOptions } from './core/http/framework-errors.js';
import { lazySchemaCompilers } from './core/http/lazy-schema-compilers.js';
import { withRedactedUrls } from './core/http/request-log.js';
import jsonBody from './plugins/json-body.js';
import auth from './plugins/auth.js';
import consoleCors from './plugins/console-cors.js';
import queueDashboard from './plugins/queue-dashboard.js';
import meRoutes from './routes/workspace/me.js';
import openapi from './plugins/openapi.js';
import rateLimits from './plugins/rate-limits.js';
import healthRoutes from './routes/health.js';
import versionRoutes, { API_VERSION } from './routes/version.js';
import jwksRoutes from './routes/jwks.js';
import schemaRoutes from './routes/schemas.js';
import projectRoutes from './routes/projects/index.js';
import analyticsRoutes from './routes/projects/analytics.js';
import apiKeyRoutes from './routes/workspace/api-keys.js';
import assetRoutes from './routes/assets/index.js';
import fileRoutes from './routes/files.js';
import shareSettingsRoutes from './routes/share-settings/index.js';
import publicShareRoutes from './routes/public-share/index.js';
import requestRoutes from './routes/requests/index.js';
import webhookRoutes from './routes/webhooks/index.js';
import externalAssetRoutes from './routes/external-assets/index.js';
import externalProviderRoutes from './routes/external-providers/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
}

/** The API as a Fastify instance: what main.ts listens with and what tests start on port 0. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: withRedactedUrls(options.logger ?? { level: config.logLevel }),
    // Only the configured proxies (the BFF, a load balancer) may speak for the client's address.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: 1024 * 1024,
    // A client that trickles a body must not hold a submit or upload slot for ever.
    requestTimeout: 300_000,
    // Each route's schemas are compiled on its first request, not all of them at start-up.
    ...lazySchemaCompilers({
      customOptions: { coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: true },
    }),
    ...frameworkErrorOptions(),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', deps);
  if (config.trustProxy.length === 0) {
    app.log.warn(
      'TRUST_PROXY is empty: X-Forwarded-For is ignored, ' +
        'so behind a BFF or load balancer every client shares one IP for rate limits',
    );
  }
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-api-version', API_VERSION);
  });

  await app.register(errorHandler);
  await app.register(consoleCors);
  await app.register(jsonBody);
  await app.register(openapi);
  await app.register(rateLimits);
  await app.register(auth);

  await app.register(healthRoutes);
  await app.register(versionRoutes);
  await app.register(schemaRoutes);
  await app.register(jwksRoutes);
  await app.register(projectRoutes);
  await app.register(analyticsRoutes);
  await app.register(apiKeyRoutes);
  await app.register(assetRoutes);
  await app.register(fileRoutes);
  await app.register(shareSettingsRoutes);
  await app.register(publicShareRoutes);
  await app.register(requestRoutes);
  await app.register(webhookRoutes);
  await app.register(externalAssetRoutes);
  await app.register(externalProviderRoutes);
  await app.register(meRoutes);
  await app.register(queueDashboard);
  return app;
}
