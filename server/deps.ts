import type { Redis } from 'ioredis';
import { type Config, requireSetting } from './core/config.js';
import { createDb, type Db } from './core/db/client.js';
import { createRedis } from './core/redis.js';
import { closeQueues, createQueues, type Queues } from './core/queues.js';
import { createStorage, type StorageDriver } from './core/storage/index.js';
import { createUrlSigner, type UrlSigner } from './core/storage/signed-urls.js';

/**
 * What the API needs from the outside world, built once per process (and once per test file).
 * Routes reach it as `app.deps`; nothing else holds connections.
 */
export interface AppDeps {
  config: Config;
  db: Db;
  /** Fail-fast Redis for the request path: rate limits, caches, queue producers. */
  redis: Redis;
  queues: Queues;
  storage: StorageDriver;
  signer: UrlSigner;
}

export function createDeps(config: Config): AppDeps {
  const redis = createRedis(config.redisUrl, 'request');
  return {
    config,
    db: createDb(config.databaseUrl),
    redis,
    queues: createQueues(redis, config.queuePrefix),
    storage: createStorage(config),
    signer: createUrlSigner(requireSetting(config.fileSigningSecret, 'FILE_SIGNING_SECRET'), config.publicBaseUrl),
  };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await Promise.race([closeQueues(deps.queues), new Promise((r) => setTimeout(r, 2000))]);
  deps.redis.disconnect();
  await deps.db.$client.end();
}
