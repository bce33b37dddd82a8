import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createRedis, waitForRedis } from '#core/platform/redis.js';
import type { RedisSettings } from '#core/platform/config/pieces.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The request-path Redis connection (fail-fast): the read budget, the feed's sequence checks, /health. */
    redis: Redis;
  }
}

/** Options of the Redis plugin. */
export interface RedisPluginOptions {
  settings: RedisSettings;
  /** How long start-up waits for Redis before listening anyway, in ms (default 2000); /health then says so. */
  waitMs?: number;
}

/**
 * The BFF's request-path Redis connection. The BFF starts without Redis too: its cache is then
 * never trusted (every read goes to the server) and /health names `redis`.
 */
export default fp(
  async function redisPlugin(app: FastifyInstance, { settings, waitMs = 2000 }: RedisPluginOptions) {
    const redis = createRedis(settings.redisUrl, 'request');
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    if (!(await waitForRedis(redis, waitMs)))
      app.log.warn('Redis did not answer at start: the read cache stays off until it does');
  },
  { name: 'redis-plugin' },
);
