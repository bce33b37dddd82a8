import type { Db } from '../platform/db/client.js';
import type { TransactionRunner } from '../platform/db/transactions.js';
import type { ShareChange, ShareChangePublisher } from '../platform/share-changes.js';
import type { StorageDriver } from '../platform/storage/index.js';
import type { OutboxNudger } from '../jobs/outbox.js';
import type { EmittedEvent } from './events.js';

/** The logger methods services report with (pino's, or any with the same shape). */
export interface ServiceLog {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * What every service is made from. Built once per process (server, worker, CLI) and passed to
 * the service factories; no Fastify in here, so the worker and the CLIs use the same services.
 */
export interface ServiceDeps {
  db: Db;
  /** A transaction whose after-commit effects run once it commits (see transactions.ts). */
  inTransaction: TransactionRunner;
  shareChanges: ShareChangePublisher;
  storage: StorageDriver;
  log: ServiceLog;
  /**
   * Wakes the workers' relay after a commit that queued work (the API's; CLIs go without: the relay's sweep finds it).
   */
  outbox?: OutboxNudger;
}

/** The after-commit effect that tells every server and BFF a share may answer differently now. */
export const noticeShareChange = (deps: Pick<ServiceDeps, 'shareChanges'>, change: ShareChange) => () =>
  deps.shareChanges.publish(change);

/** Removes a deleted row's files after commit: a failed removal leaves an orphan file, never a dangling row. */
export const deleteFiles = (deps: Pick<ServiceDeps, 'storage' | 'log'>, keys: readonly string[]) => () =>
  Promise.all(
    keys.map((key) =>
      deps.storage.delete(key).catch((error: unknown) => deps.log.warn({ err: error, key }, 'could not delete a file')),
    ),
  );

/** The after-commit effect that wakes the workers' relay for the webhook deliveries an event queued. */
export const nudgeDeliveries = (deps: Pick<ServiceDeps, 'outbox' | 'log'>, emitted: EmittedEvent | null) => () => {
  if (emitted)
    deps.outbox?.nudge(
      emitted.deliveries.map((delivery) => delivery.outbox),
      deps.log,
    );
};
