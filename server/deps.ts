import type { Redis } from 'ioredis';
import { requireSetting } from './core/platform/config/settings.js';
import type { ServerConfig } from './config.js';
import { createDb, type Db } from './core/platform/db/client.js';
import { createTransactionRunner } from './core/platform/db/transactions.js';
import { createRedis } from './core/platform/redis.js';
import { createLogger } from './core/platform/log.js';
import {
  createShareChangeFeed,
  createShareChangePublisher,
  type ShareChangeFeed,
} from './core/platform/share-changes.js';
import { createStorage, type StorageDriver } from './core/platform/storage/index.js';
import { createUrlSigner, type UrlSigner } from './core/platform/storage/signed-urls.js';
import { createOutboxNudger, outboxWakeUpChannel, type OutboxNudger } from './core/jobs/outbox.js';
import { createCpuPool, type CpuPool } from './core/platform/cpu-pool.js';
import { createServices, type Services } from './core/services/index.js';
import { createWebhookSender, type WebhookSender } from './core/platform/webhook-sender.js';
import { createLibraries, type Libraries } from './core/platform/libraries/index.js';

/**
 * What the API needs from the outside world, built once per process (and test file), and its services.
 * Routes reach them as `app.deps`; nothing else holds connections.
 */
export interface AppDeps {
  config: ServerConfig;
  db: Db;
  /** Fail-fast Redis for the request path: rate limits, caches, outbox wake-ups, share-change notices. */
  redis: Redis;
  storage: StorageDriver;
  signer: UrlSigner;
  /** Wakes the workers' relays after a commit with outbox rows, coalesced; their periodic sweep covers misses. */
  outbox: OutboxNudger;
  /** Threads for CPU work off the event loop (model checks). */
  cpuPool: CpuPool;
  /** Sends the webhook test endpoint's requests (keeps connections to receivers alive). */
  webhookSender: WebhookSender;
  /** The share-change notices this process hears (keeps the public share state in memory current). */
  shareFeed: ShareChangeFeed;
  /** The online libraries' adapters (one guarded HTTP client). */
  libraries: Libraries;
  services: Services;
}

/** A model check in the pool; its module loads with the first upload. */
async function checkModelInPool(pool: CpuPool, bytes: Uint8Array, fileName: string) {
  const { checkModelFileInPool } = await import('./core/services/model-checks/check-model-in-pool.js');
  return checkModelFileInPool(pool, bytes, fileName);
}

/** A stored model's outline in the pool; its module loads with the first outline an old asset needs. */
async function outlineModelInPool(pool: CpuPool, glb: Uint8Array) {
  const { outlineModelInPool } = await import('./core/services/model-checks/outline-model-in-pool.js');
  return outlineModelInPool(pool, glb);
}

export function createDeps(config: ServerConfig): AppDeps {
  const log = createLogger(config.logLevel, { process: 'server' });
  const redis = createRedis(config.redisUrl, 'request');
  const db = createDb(config.databaseUrl, config.databasePoolSize);
  const storage = createStorage(config);
  const signer = createUrlSigner(requireSetting(config.fileSigningSecret, 'FILE_SIGNING_SECRET'), config.publicBaseUrl);
  const outbox = createOutboxNudger(redis, outboxWakeUpChannel(config.queuePrefix));
  const cpuPool = createCpuPool({ threads: config.cpuThreads });
  const webhookSender = createWebhookSender({ allowInsecure: config.webhooks.allowInsecure });
  const libraries = createLibraries(config);
  const services = createServices(
    {
      db,
      inTransaction: createTransactionRunner(db, log),
      shareChanges: createShareChangePublisher(redis, config.queuePrefix),
      storage,
      log,
    },
    {
      redis,
      prefix: config.queuePrefix,
      signer,
      outbox,
      signedModelLimit: config.signedModelLimit,
      checkModel: (bytes, fileName) => checkModelInPool(cpuPool, bytes, fileName),
      outlineModel: (glb) => outlineModelInPool(cpuPool, glb),
      webhookSender,
      webhooks: config.webhooks,
      libraries,
      librarySettings: config,
      ownLibraryCallback: `${config.publicBaseUrl}/external-providers/library_b/callback`,
      cart: config.cart,
      issuer: config.publicBaseUrl,
    },
  );
  // A subscribed connection can do nothing else, and must reconnect for ever.
  const shareFeed = createShareChangeFeed({
    subscriber: createRedis(config.redisUrl, 'worker'),
    redis,
    prefix: config.queuePrefix,
    handlers: services.publicShare.shareStates,
  });
  services.publicShare.shareStates.attach(shareFeed);
  return { config, db, redis, storage, signer, outbox, cpuPool, webhookSender, shareFeed, libraries, services };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await deps.outbox.drain();
  await deps.shareFeed.close();
  deps.redis.disconnect();
  await Promise.all([
    deps.cpuPool.close(),
    deps.webhookSender.close(),
    deps.libraries.close(),
    deps.db.$client.end(),
    deps.storage.close(),
  ]);
}
