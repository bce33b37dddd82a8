import { Redis, type RedisOptions } from 'ioredis';

/**
 * Workers block on Redis and must retry forever (BullMQ requires `maxRetriesPerRequest: null`); request
 * paths must fail fast instead of queueing commands while Redis is down.
 */
export function createRedis(url: string, purpose: 'worker' | 'request'): Redis {
  const options: RedisOptions =
    purpose === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : // Commands issued in the same tick (a rate limit and the share-change check of concurrent
        // reads) go to Redis in one write: fewer syscalls on the hot path.
        {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          connectTimeout: 1000,
          commandTimeout: 1000,
          enableAutoPipelining: true,
        };
  const redis = new Redis(url, { ...options, lazyConnect: false, retryStrategy: (n) => Math.min(n * 200, 2000) });
  // Errors surface on the commands that fail; an unhandled 'error' event would crash the process.
  redis.on('error', () => {});
  return redis;
}

/**
 * Waits (bounded) until a connection is ready, because request-path connections do not queue commands.
 * Resolves false when Redis did not answer in time: the process starts anyway and /health says so.
 */
export function waitForRedis(redis: Redis, timeoutMs = 5000): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    function onReady() {
      clearTimeout(timer);
      resolve(true);
    }
    redis.once('ready', onReady);
  });
}
