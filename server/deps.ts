import type { Redis } from 'ioredis';
import { requireSetting } from './core/platform/config/settings.js';
import type { ServerConfig } from './config.js';
import { createDb, type Db } from './core/platform/db/client.js';
import { createRedis } from './core/platform/redis.js';
import { createStorage, type StorageDriver } from './core/platform/storage/index.js';
import { createUrlSigner, type UrlSigner } from './core/platform/storage/signed-urls.js';
import { createOutboxNudger, outboxWakeUpChannel, type OutboxNudger } from './core/jobs/outbox.js';
import { createCpuPool, type CpuPool } from './core/platform/cpu-pool.js';

/**
 * What the API needs from the outside world, built once per process (and once per test file).
 * Routes reach it as `app.deps`; nothing else holds connections.
 */
export interface AppDeps {
  config: ServerConfig;
  db: Db;
  /** Fail-fast Redis for the request path: rate limits, caches, outbox wake-ups. */
  redis: Redis;
  storage: StorageDriver;
  signer: UrlSigner;
  /** Wakes the workers' relays after a commit with outbox rows, coalesced; their periodic sweep covers misses. */
  outbox: OutboxNudger;
  /** Threads for CPU work off the event loop (model checks). */
  cpuPool: CpuPool;
}

export function createDeps(config: ServerConfig): AppDeps {
  const redis = createRedis(config.redisUrl, 'request');
  const db = createDb(config.databaseUrl);
  return {
    config,
    db,
    redis,
    outbox: createOutboxNudger(redis, outboxWakeUpChannel(config.queuePrefix)),
    storage: createStorage(config),
    signer: createUrlSigner(requireSetting(config.fileSigningSecret, 'FILE_SIGNING_SECRET'), config.publicBaseUrl),
    cpuPool: createCpuPool({ threads: config.cpuThreads }),
  };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await deps.outbox.drain();
  deps.redis.disconnect();
  await Promise.all([deps.cpuPool.close(), deps.db.$client.end()]);
}
