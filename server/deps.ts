import type { Redis } from 'ioredis';
import { requireSetting } from './core/platform/config/settings.js';
import type { ServerConfig } from './config.js';
import { createDb, type Db } from './core/platform/db/client.js';
import { createRedis } from './core/platform/redis.js';
import { closeQueues, createQueues, type Queues } from './core/jobs/queues.js';
import { createStorage, type StorageDriver } from './core/platform/storage/index.js';
import { createUrlSigner, type UrlSigner } from './core/platform/storage/signed-urls.js';
import { createOutboxNudger, type OutboxNudger } from './core/jobs/outbox.js';

/**
 * What the API needs from the outside world, built once per process (and once per test file).
 * Routes reach it as `app.deps`; nothing else holds connections.
 */
export interface AppDeps {
  config: ServerConfig;
  db: Db;
  /** Fail-fast Redis for the request path: rate limits, caches, queue producers. */
  redis: Redis;
  queues: Queues;
  storage: StorageDriver;
  signer: UrlSigner;
  /** Hands freshly committed outbox rows to BullMQ, coalesced; the worker's relay covers misses. */
  outbox: OutboxNudger;
}

export function createDeps(config: ServerConfig): AppDeps {
  const redis = createRedis(config.redisUrl, 'request');
  const db = createDb(config.databaseUrl);
  const queues = createQueues(redis, config.queuePrefix);
  return {
    config,
    db,
    redis,
    queues,
    outbox: createOutboxNudger(db, queues),
    storage: createStorage(config),
    signer: createUrlSigner(requireSetting(config.fileSigningSecret, 'FILE_SIGNING_SECRET'), config.publicBaseUrl),
  };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await Promise.race([deps.outbox.drain(), new Promise((r) => setTimeout(r, 2000))]);
  await Promise.race([closeQueues(deps.queues), new Promise((r) => setTimeout(r, 2000))]);
  deps.redis.disconnect();
  await deps.db.$client.end();
}
