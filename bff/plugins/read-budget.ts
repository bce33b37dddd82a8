import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { RedisSettings, ShareReadLimitSettings } from '#core/platform/config/pieces.js';
import { createReadBudget, type ReadBudget } from '#core/services/public-share/read-budget.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public read budget, spent by the answers the BFF gives from its cache (the server's own counter). */
    readBudget: ReadBudget;
  }
}

/** Options of the read budget plugin. */
export interface ReadBudgetPluginOptions {
  settings: RedisSettings & ShareReadLimitSettings;
}

/** The server's read budget on the request-path Redis connection. Needs the Redis plugin. */
export default fp(
  async function readBudgetPlugin(app: FastifyInstance, { settings }: ReadBudgetPluginOptions) {
    app.decorate(
      'readBudget',
      createReadBudget({ redis: app.redis, prefix: settings.queuePrefix, rate: settings.shareReadRate }),
    );
  },
  { dependencies: ['redis-plugin'] },
);
