import type { WebhookSettings, WorkerSettings } from '#core/platform/config/pieces.js';

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
