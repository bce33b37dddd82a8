import type { Redis } from 'ioredis';
import type { WorkerConfig } from './config.js';
import { createDb, type Db } from '../server/core/platform/db/client.js';
import { createRedis } from '../server/core/platform/redis.js';
import { closeQueues, createQueues, type Queues } from '../server/core/jobs/queues.js';
import { createStorage, type StorageDriver } from '../server/core/platform/storage/index.js';
import { createSubmissionRepository, type SubmissionRepository } from '../server/core/repositories/submissions.js';
import type { Logger } from '../server/core/platform/log.js';

/**
 * What the worker process needs, built once. Two Redis clients on purpose: BullMQ workers block
 * and must retry forever (`workerRedis`), while enqueuing (the relay, a step handing over to the
 * next) must fail fast so that a Redis outage never holds an outbox transaction open.
 */
export interface WorkerDeps {
  config: WorkerConfig;
  db: Db;
  storage: StorageDriver;
  /** Producers on the fail-fast client. */
  queues: Queues;
  workerRedis: Redis;
  producerRedis: Redis;
  submissions: SubmissionRepository;
  log: Logger;
}

export function createWorkerDeps(config: WorkerConfig, log: Logger): WorkerDeps {
  const db = createDb(config.databaseUrl, Math.max(4, config.worker.concurrency * 2 + 2));
  const producerRedis = createRedis(config.redisUrl, 'request');
  return {
    config,
    db,
    storage: createStorage(config),
    queues: createQueues(producerRedis, config.queuePrefix),
    workerRedis: createRedis(config.redisUrl, 'worker'),
    producerRedis,
    submissions: createSubmissionRepository(db),
    log,
  };
}

/** Closes what `createWorkerDeps` opened; call it after the workers are closed. */
export async function closeWorkerDeps(deps: WorkerDeps): Promise<void> {
  // Queue.close waits for Redis; it must not hold the shutdown when Redis is gone.
  await Promise.race([closeQueues(deps.queues).catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
  // Clients passed to BullMQ are shared: BullMQ leaves them open, so they are ours to end.
  await Promise.race([Promise.all([deps.workerRedis.quit(), deps.producerRedis.quit()]).catch(() => {}), new Promise((r) => setTimeout(r, 1000))]);
  deps.workerRedis.disconnect();
  deps.producerRedis.disconnect();
  await deps.db.$client.end();
}
