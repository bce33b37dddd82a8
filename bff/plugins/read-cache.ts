import fp from 'fastify-plugin';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createRedis } from '#core/platform/redis.js';
import { createShareChangeFeed } from '#core/platform/share-changes.js';
import { withTimeout } from '#core/platform/deadline.js';
import type { BffCacheSettings, RedisSettings } from '#core/platform/config/pieces.js';
import { createReadCache, type ReadCache } from '../services/read-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The cache of public reads, kept current by the share-change notices. */
    readCache: ReadCache;
    /** This process's key for the HMAC of share passwords in cache keys: never leaves the process. */
    readCacheSecret: Buffer;
  }
}

/** Bound of the kept answers' bodies and headers, in bytes. */
const CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** Options of the read cache plugin. */
export interface ReadCachePluginOptions {
  settings: RedisSettings & BffCacheSettings;
  /** How long start-up waits for the first subscription, in ms (default 2000). */
  waitMs?: number;
}

/**
 * The read cache and its share-change feed, on a Redis connection of its own (a subscribed
 * connection can do nothing else, and must reconnect for ever). Needs the Redis plugin.
 */
export default fp(
  async function readCachePlugin(app: FastifyInstance, { settings, waitMs = 2000 }: ReadCachePluginOptions) {
    const cache = createReadCache({ ttlMs: settings.bffCacheTtlMs, maxBytes: CACHE_MAX_BYTES });
    const feed = createShareChangeFeed({
      subscriber: createRedis(settings.redisUrl, 'worker'),
      redis: app.redis,
      prefix: settings.queuePrefix,
      handlers: cache,
    });
    app.decorate('readCache', cache);
    // Random per process: a password's HMAC in a key means nothing outside this process.
    app.decorate('readCacheSecret', randomBytes(32));
    app.addHook('onClose', async () => {
      cache.close();
      await feed.close();
    });
    // Bounded: the BFF starts without Redis too (the cache is then never trusted).
    await withTimeout(() => feed.ready(), waitMs).catch(() => {});
    await cache.attach(feed);
  },
  { dependencies: ['redis-plugin'] },
);
