import type { Redis } from 'ioredis';
import { requireSetting } from './core/platform/config/settings.js';
import type { ServerConfig } from './config.js';
import { createDb, type Db } from './core/platform/db/client.js';
import { createTransactionRunner } from './core/platform/db/transactions.js';
import { createRedis } from './core/platform/redis.js';
import { createLogger } from './core/platform/log.js';
import { createShareChangeFeed, createShareChangePublisher, type ShareChangeFeed } from './core/platform/share-changes.js';
import { closeQueues, createQueues, type Queues } from './core/jobs/queues.js';
import { createStorage, type StorageDriver } from './core/platform/storage/index.js';
import { createUrlSigner, type UrlSigner } from './core/platform/storage/signed-urls.js';
import { createOutboxNudger, type OutboxNudger } from './core/jobs/outbox.js';
import { createServices, type Services } from './core/services/index.js';

/**
 * What the API needs from the outside world, built once per process (and once per test file),
 * and the services made from it. Routes reach them as `app.deps` and `app.deps.services`;
 * nothing else holds connections.
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
  /** The share-change notices this process hears (keeps the public share state in memory current). */
  shareFeed: ShareChangeFeed;
  services: Services;
}

export function createDeps(config: ServerConfig): AppDeps {
  const log = createLogger(config.logLevel, { process: 'server' });
  const redis = createRedis(config.redisUrl, 'request');
  const db = createDb(config.databaseUrl);
  const queues = createQueues(redis, config.queuePrefix);
  const storage = createStorage(config);
  const signer = createUrlSigner(requireSetting(config.fileSigningSecret, 'FILE_SIGNING_SECRET'), config.publicBaseUrl);
  const outbox = createOutboxNudger(db, queues);
  const services = createServices(
    { db, inTransaction: createTransactionRunner(db, log), shareChanges: createShareChangePublisher(redis, config.queuePrefix), storage, log },
    { redis, prefix: config.queuePrefix, signer, outbox, signedModelLimit: config.signedModelLimit, defaultModelLimit: config.defaultModelLimit },
  );
  // A subscribed connection can do nothing else, and must reconnect for ever.
  const shareFeed = createShareChangeFeed({ subscriber: createRedis(config.redisUrl, 'worker'), redis, prefix: config.queuePrefix, handlers: services.publicShare.shareStates });
  services.publicShare.shareStates.attach(shareFeed);
  return { config, db, redis, queues, outbox, storage, signer, shareFeed, services };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await Promise.race([deps.outbox.drain(), new Promise((r) => setTimeout(r, 2000))]);
  await Promise.race([closeQueues(deps.queues), new Promise((r) => setTimeout(r, 2000))]);
  await deps.shareFeed.close();
  deps.redis.disconnect();
  await deps.db.$client.end();
}
