import { deliveryJobId, deliveryOutboxJob } from '../jobs/queues.js';
import type { Executor } from '../platform/db/client.js';
import { storageKeys } from '../platform/storage/index.js';
import { createAssetRepository, type DeliveryStatus } from '../repositories/assets.js';
import { createImportRepository } from '../repositories/imports.js';
import { createOutboxRepository } from '../repositories/outbox.js';
import { deliveryCheck } from '../domain/models/delivery-check.js';
import type { DeliveryOutcome } from '../domain/models/delivery-file.js';
import { deleteFiles, noticeShareChange, type ServiceDeps } from './service-deps.js';

/** Makes a stored GLB's delivery file (the worker: in its CPU pool). */
export type MakeDeliveryFile = (glb: Uint8Array, signal?: AbortSignal) => Promise<DeliveryOutcome>;

/** Assets asked for at once by the admin command, per transaction. */
const ASK_BATCH = 500;

/** Queues delivery jobs in the caller's transaction: the rows say `pending`, the outbox holds the jobs. */
export async function queueDeliveries(
  deps: Pick<ServiceDeps, 'db' | 'outbox' | 'log'>,
  tx: Executor,
  afterCommit: (effect: () => unknown) => void,
  assetIds: readonly string[],
): Promise<void> {
  if (assetIds.length === 0) return;
  const jobs = assetIds.map(deliveryOutboxJob);
  const ids = await createOutboxRepository(deps.db).add(tx, jobs);
  // Ids come back for new rows only; when a job was already queued, the relay's sweep finds the others.
  if (ids.length === jobs.length)
    afterCommit(() =>
      deps.outbox?.nudge(
        jobs.map((job, i) => ({ ...job, id: ids[i] })),
        deps.log,
      ),
    );
}

/**
 * Delivery files (docs/delivery-files.md): asked for when an asset is saved, by the admin command and lazily by
 * public reads; made by the worker's job, which records the outcome and tells every BFF when shoppers get the new file.
 */
export function createAssetDeliveryService(deps: ServiceDeps, options: { makeDeliveryFile?: MakeDeliveryFile } = {}) {
  const assets = createAssetRepository(deps.db);
  const imports = createImportRepository(deps.db);
  const outbox = createOutboxRepository(deps.db);

  /** Marks the assets pending and queues their jobs; the ids marked. */
  async function ask(assetIds: string[], onlyUnasked: boolean): Promise<string[]> {
    return deps.inTransaction(async ({ tx, afterCommit }) => {
      const asked = await assets.askDelivery(tx, assetIds, onlyUnasked);
      await queueDeliveries(deps, tx, afterCommit, asked);
      return asked;
    });
  }

  /** Records an outcome for the asset if its original is still `storageKey`; false when it is gone. */
  async function record(
    assetId: string,
    source: { workspaceId: string; storageKey: string; sizeBytes: number },
    delivery: {
      status: Exclude<DeliveryStatus, 'pending'>;
      storageKey: string | null;
      sizeBytes: number | null;
      reason: string | null;
    },
  ): Promise<boolean> {
    return deps.inTransaction(async ({ tx, afterCommit }) => {
      const kept = await assets.setDelivery(tx, assetId, source.storageKey, delivery);
      await outbox.complete(tx, deliveryJobId(assetId));
      if (!kept) return false;
      await imports.setReadinessCheck(tx, assetId, deliveryCheck({ ...delivery, originalBytes: source.sizeBytes }));
      afterCommit(noticeShareChange(deps, { reason: 'asset', workspaceId: source.workspaceId }));
      // A delivery file made before and no longer served (the model is now skipped or failed) goes.
      if (kept.previousKey && !delivery.storageKey) afterCommit(deleteFiles(deps, [kept.previousKey]));
      return true;
    });
  }

  return {
    /**
     * Asks, in the background, for the delivery files of those assets never asked for (saved before delivery files;
     * a read showed them). Never throws: a failure is logged and the next read asks again.
     */
    askLazily(assets: ReadonlyArray<{ id: string; deliveryStatus?: DeliveryStatus | null }>): void {
      const ids = assets.filter((asset) => !asset.deliveryStatus).map((asset) => asset.id);
      if (ids.length === 0) return;
      ask(ids, true).catch((error: unknown) =>
        deps.log.warn({ err: error, assetIds: ids }, 'delivery files not asked for'),
      );
    },

    /** Asks again for these assets, whatever their state (the admin command); the ids of those that exist. */
    askFor: (assetIds: string[]) => ask(assetIds, false),

    /**
     * Asks for every asset without a delivery file that never got one or whose job failed (the admin command's
     * `--all`), in batches; how many were asked for.
     */
    async askForAllMissing(): Promise<number> {
      let asked = 0;
      let after: string | null = null;
      for (;;) {
        const ids = await assets.withoutDelivery(ASK_BATCH, after);
        if (ids.length === 0) return asked;
        asked += (await ask(ids, false)).length;
        after = ids[ids.length - 1];
      }
    },

    /**
     * The job: makes the asset's delivery file from its stored original and records it. Idempotent: a second run
     * makes the same file under the same key. A deleted asset ends the job with nothing kept.
     */
    async make(
      assetId: string,
      signal?: AbortSignal,
    ): Promise<{ status: DeliveryStatus | 'gone'; sizeBytes?: number }> {
      if (!options.makeDeliveryFile) throw new Error('this process does not make delivery files');
      const source = await assets.deliverySource(assetId);
      if (!source) {
        await outbox.complete(deps.db, deliveryJobId(assetId));
        return { status: 'gone' };
      }
      const outcome = await options.makeDeliveryFile(await deps.storage.read(source.storageKey), signal);
      if (outcome.kind === 'skipped') {
        deps.log.info({ assetId, reason: outcome.reason }, 'delivery file skipped: the original is served');
        const kept = await record(assetId, source, {
          status: 'skipped',
          storageKey: null,
          sizeBytes: null,
          reason: outcome.reason,
        });
        return { status: kept ? 'skipped' : 'gone' };
      }
      const key = storageKeys.assetDelivery(source.workspaceId, assetId);
      await deps.storage.put(key, outcome.glb, { contentType: 'model/gltf-binary' });
      const delivery = {
        status: 'ready' as const,
        storageKey: key,
        sizeBytes: outcome.figures.sizeBytes,
        reason: null,
      };
      if (await record(assetId, source, delivery)) return { status: 'ready', sizeBytes: outcome.figures.sizeBytes };
      // Deleted (or replaced) while the file was made: it belongs to no row.
      await deleteFiles(deps, [key])();
      return { status: 'gone' };
    },

    /** The job failed for good: the original is served, and the admin command may ask again. */
    async giveUp(assetId: string, failedReason: string | undefined): Promise<void> {
      const source = await assets.deliverySource(assetId);
      if (!source) return outbox.complete(deps.db, deliveryJobId(assetId));
      deps.log.warn({ assetId, failedReason }, 'delivery file failed: the original is served');
      const tooLong = /took longer than/.test(failedReason ?? '');
      await record(assetId, source, {
        status: 'failed',
        storageKey: null,
        sizeBytes: null,
        reason: `making it failed (${tooLong ? 'it took too long' : 'the optimizer stopped on this model'})`,
      });
    },
  };
}
