import { QUEUES, type QueueName } from '#core/jobs/queues.js';
import type { JobRegistry, JobType } from './define-job.js';
import type { QueueFamily } from './queue-family.js';
import { health } from './health.js';
import { submissionScreenshots } from './submission-screenshots.js';
import { submissionPdf } from './submission-pdf.js';
import { submissionEmail } from './submission-email.js';
import { submissionCustomerCopy } from './submission-customer-copy.js';
import { submissionEvents } from './submission-events.js';
import { storageSweep } from './storage-sweep.js';
import { visitorEventSweep } from './visitor-event-sweep.js';
import { configurationSweep } from './configuration-sweep.js';
import { webhookDelivery, webhookDeliveryBatch } from './webhook-delivery.js';
import { libraryImport } from './library-import.js';
import { assetDelivery } from './asset-delivery.js';

/** Builds a registry; a job type declared twice is a programming error. */
export function createJobRegistry(
  types: readonly JobType[],
  families: Partial<Record<QueueName, QueueFamily>>,
): JobRegistry {
  const byKey = new Map<string, JobType>();
  const queues = new Map<QueueName, QueueFamily>();
  for (const type of types) {
    const key = `${type.queue}/${type.name}`;
    if (byKey.has(key)) throw new Error(`job type ${key} is declared twice`);
    byKey.set(key, type);
    queues.set(type.queue, families[type.queue] ?? {});
  }
  return { queues, get: (queue, name) => byKey.get(`${queue}/${name}`), keys: () => [...byKey.keys()] };
}

/** Every job type of the product, registered here and nowhere else. */
export const JOBS = createJobRegistry(
  [
    health,
    submissionScreenshots,
    submissionPdf,
    submissionEmail,
    submissionCustomerCopy,
    submissionEvents,
    storageSweep,
    visitorEventSweep,
    configurationSweep,
    webhookDelivery,
    webhookDeliveryBatch,
    libraryImport,
    assetDelivery,
  ],
  {
    // A probe: one at a time is plenty, and it never waits behind real work.
    [QUEUES.health]: { concurrency: 1 },
    // A long scan: one at a time, with a lock that outlives a slow page of the store's listing.
    [QUEUES.maintenance]: { concurrency: 1, lockDurationMs: 120_000 },
    [QUEUES.submissionSteps]: {},
    // Attempts wait on receivers, not on the CPU or Postgres: many at once (WEBHOOK_CONCURRENCY),
    // on a pool of their own (worker/deps.ts), holding a connection only around the request.
    [QUEUES.webhookDeliveries]: { concurrency: (settings) => settings.webhooks.concurrency, connectionsPerJob: 0 },
    // Downloads wait on the network, checks on the CPU pool: a few at once per worker process
    // (the API lets 3 run per workspace). Each holds at most 80 MB on disk and the model in the pool.
    [QUEUES.imports]: { concurrency: 3 },
    // One model at a time per worker process: each holds its textures decoded (four 4096 px ones: 256 MB).
    [QUEUES.deliveries]: { concurrency: 1, lockDurationMs: 120_000 },
  },
);
