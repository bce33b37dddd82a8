import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type {
  BffCacheSettings,
  RedisSettings,
  ShareReadLimitSettings,
} from '../../server/core/platform/config/pieces.js';
import { createReadBudget, type ReadBudget } from '../services/read-budget.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public read budget for the answers the BFF gives from its cache (one budget with the server's). */
    readBudget: ReadBudget;
  }
}

/** Options of the read budget plugin. */
export interface ReadBudgetPluginOptions {
  settings: RedisSettings & BffCacheSettings & ShareReadLimitSettings;
}

/** The read budget on the request-path Redis connection. Needs the Redis plugin. */
export default fp(
  async function readBudgetPlugin(app: FastifyInstance, { settings }: ReadBudgetPluginOptions) {
    app.decorate(
      'readBudget',
      createReadBudget({
        redis: app.redis,
        prefix: settings.queuePrefix,
        rate: settings.shareReadRate,
        slice: settings.bffCache.rateSlice,
      }),
    );
  },
  { dependencies: ['redis-plugin'] },
);
