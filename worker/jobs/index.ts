import { QUEUES, type QueueName } from '#core/jobs/queues.js';
import type { WebhookSettings, WorkerSettings } from '#core/platform/config/pieces.js';
import type { JobType } from './define-job.js';
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

/**
 * Each family has its own BullMQ Worker, so a burst of one never keeps another waiting; unset values
 * come from WORKER_CONCURRENCY and WORKER_LOCK_DURATION_MS.
 */
export interface QueueFamily {
  /** Jobs of this queue one worker process runs at once: a number, or read from the settings. */
  concurrency?: number | ((settings: FamilySettings) => number);
  /** BullMQ lock of a running job: a job whose worker stops renewing it runs again elsewhere. */
  lockDurationMs?: number;
  /** Postgres connections a running job may hold at once (default 2: its work and its lease); sizes the pool. */
  connectionsPerJob?: number;
}

/** The settings a family's options may come from. */
export type FamilySettings = WorkerSettings & WebhookSettings;

/** A family's options, with the settings filling in what it leaves unset. */
export function familyOptions(family: QueueFamily, settings: FamilySettings) {
  const { concurrency = settings.worker.concurrency } = family;
  return {
    concurrency: typeof concurrency === 'function' ? concurrency(settings) : concurrency,
    lockDurationMs: family.lockDurationMs ?? settings.worker.lockDurationMs,
    connectionsPerJob: family.connectionsPerJob ?? 2,
  };
}

/** The job types, by queue and name, and the queues they run on. */
export interface JobRegistry {
  /** The queues with at least one job type: one BullMQ Worker each. */
  queues: Map<QueueName, QueueFamily>;
  get(queue: string, name: string): JobType | undefined;
  /** `queue/name` of every job type: the outbox rows this worker hands over. */
  keys(): string[];
}

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
