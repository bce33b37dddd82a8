import { Queue } from 'bullmq';
import { QUEUES, type QueueName } from '#core/jobs/queues.js';
import type { WorkerConfig } from './config.js';
import { createDb } from '#core/platform/db/client.js';
import { createRedis } from '#core/platform/redis.js';
import { withTimeout } from '#core/platform/deadline.js';
import { familyOptions, type QueueFamily } from './jobs/queue-family.js';
import { createStorage } from '#core/platform/storage/index.js';
import { createSubmissionStepService } from '#core/services/submission-steps.js';
import { createOutboxRepository } from '#core/repositories/outbox.js';
import { createSubmissionStepRepository } from '#core/repositories/submission-steps.js';
import { createSubmissionRepository } from '#core/repositories/submissions.js';
import { createSubmissionScreenshotRepository } from '#core/repositories/submission-screenshots.js';
import { createAccountRepository } from '#core/repositories/accounts.js';
import type { Logger } from '#core/platform/log.js';
import { createCpuPool } from '#core/platform/cpu-pool.js';
import { createWebhookSender } from '#core/platform/webhook-sender.js';
import { createDeliveryAttempts } from '#core/services/webhooks/delivery-attempts.js';
import { createLibraries } from '#core/platform/libraries/index.js';
import { createTransactionRunner } from '#core/platform/db/transactions.js';
import { createShareChangePublisher } from '#core/platform/share-changes.js';
import { createAssetService } from '#core/services/assets.js';
import { checkModelFileInPool } from '#core/services/model-checks/check-model-in-pool.js';
import { outlineModelInPool } from '#core/services/model-checks/outline-model-in-pool.js';
import { IMPORT_MODEL_TASK } from '#core/services/model-checks/import-model-in-pool.js';
import { createLibraryConnectionService } from '#core/services/libraries/library-connection.js';
import { createImportRunner, type ImportRunner } from '#core/services/libraries/import-runner.js';
import { createAssetDeliveryService } from '#core/services/asset-delivery.js';
import { deliveryFileInPool } from '#core/services/model-checks/delivery-file-in-pool.js';

/** One BullMQ producer per queue: only the worker hands jobs to BullMQ (the relay, a step handing over to the next). */
export type Queues = Record<QueueName, Queue>;

/**
 * Two Redis clients on purpose: BullMQ workers block and retry forever, while producers fail fast so a
 * Redis outage never holds up the relay or a step. `jobs`: the registry (worker/jobs/index.ts, or a test's own),
 * whose queue families size the Postgres pool.
 */
export function createWorkerDeps<Jobs extends { queues: Map<QueueName, QueueFamily> }>(
  config: WorkerConfig,
  log: Logger,
  jobs: Jobs,
) {
  // Two connections per job that may run at once (its work, its lease), plus the relay's.
  const connections = [...jobs.queues.values()].reduce((sum, family) => {
    const options = familyOptions(family, config);
    return sum + options.concurrency * options.connectionsPerJob;
  }, 0);
  const db = createDb(config.databaseUrl, Math.max(4, Math.ceil(connections) + 2));
  const producerRedis = createRedis(config.redisUrl, 'request');
  const queues = Object.fromEntries(
    Object.values(QUEUES).map((name) => {
      const queue = new Queue(name, { connection: producerRedis, prefix: config.queuePrefix });
      // Failed calls surface where they are made (the outbox keeps the work); unheard, BullMQ prints every reconnect.
      queue.on('error', () => {});
      return [name, queue];
    }),
  ) as Queues;
  const webhookSender = createWebhookSender({ allowInsecure: config.webhooks.allowInsecure });
  // Commits that do not wait for the disk, which would cap deliveries at its flush rate. A Postgres crash
  // then only repeats attempts (at-least-once): the lost commits also kept their outbox rows.
  const webhookDb = createDb(config.databaseUrl, Math.ceil(config.webhooks.concurrency / 2) + 2, {
    synchronousCommit: false,
  });
  const webhookAttempts = createDeliveryAttempts({
    db: webhookDb,
    sender: webhookSender,
    retryScheduleMs: config.webhooks.retryScheduleMs,
    maxSending: config.webhooks.concurrency,
  });
  const storage = createStorage(config);
  // Its threads load the import steps' modules when they start.
  const cpuPool = createCpuPool({ threads: config.cpuThreads, warm: [IMPORT_MODEL_TASK] });
  const libraries = createLibraries(config);
  const serviceDeps = {
    db,
    inTransaction: createTransactionRunner(db, log),
    shareChanges: createShareChangePublisher(producerRedis, config.queuePrefix),
    storage,
    log,
  };
  const libraryConnections = createLibraryConnectionService({ db, redis: producerRedis, libraries, log }, config);
  const importRunner = createImportRunner(serviceDeps, {
    libraries,
    connections: libraryConnections,
    assets: createAssetService(serviceDeps, {
      checkModel: (bytes, fileName) => checkModelFileInPool(cpuPool, bytes, fileName),
      outlineModel: (glb) => outlineModelInPool(cpuPool, glb),
    }),
    cpuPool,
    callTimeoutMs: config.libraryTimeoutMs,
  });
  const imports: ImportRunner = {
    ...importRunner,
    // The threads start and load the import steps while the download runs, not at start-up.
    run: (importId, signal) => (cpuPool.start(), importRunner.run(importId, signal)),
  };
  const deliveries = createAssetDeliveryService(serviceDeps, {
    makeDeliveryFile: (glb, signal) => deliveryFileInPool(cpuPool, glb, signal),
  });
  return {
    config,
    db,
    storage,
    jobs,
    queues,
    workerRedis: createRedis(config.redisUrl, 'worker'),
    producerRedis,
    /** A step's result and failure, with their outbox rows, in one transaction. */
    submissions: createSubmissionStepService(db),
    /** Plain reads, claims and single-statement writes (docs/architecture.md): straight from the repositories. */
    steps: createSubmissionStepRepository(db),
    submissionRows: createSubmissionRepository(db),
    screenshots: createSubmissionScreenshotRepository(db),
    accounts: createAccountRepository(db),
    outbox: createOutboxRepository(db),
    cpuPool,
    webhookSender,
    webhookDb,
    webhookAttempts,
    libraries,
    imports,
    deliveries,
    log,
  };
}

/** Closes what `createWorkerDeps` opened; call it after the workers are closed. */
export async function closeWorkerDeps(deps: ReturnType<typeof createWorkerDeps>): Promise<void> {
  // Queue.close waits for Redis; it must not hold the shutdown when Redis is gone.
  await withTimeout(() => Promise.all(Object.values(deps.queues).map((q) => q.close())), 2000).catch(() => {});
  // Clients passed to BullMQ are shared: BullMQ leaves them open, so they are ours to end.
  await withTimeout(() => Promise.all([deps.workerRedis.quit(), deps.producerRedis.quit()]), 1000).catch(() => {});
  deps.workerRedis.disconnect();
  deps.producerRedis.disconnect();
  await Promise.all([
    deps.cpuPool.close(),
    deps.webhookSender.close(),
    deps.libraries.close(),
    deps.db.$client.end(),
    deps.webhookDb.$client.end(),
    deps.storage.close(),
  ]);
}
