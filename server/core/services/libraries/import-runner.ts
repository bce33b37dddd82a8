import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { ImportJob } from '../../platform/db/schema/index.js';
import { storageKeys } from '../../platform/storage/index.js';
import { MAX_MODEL_BYTES, type Libraries, type LibraryItem } from '../../platform/libraries/index.js';
import type { CpuPool } from '../../platform/cpu-pool.js';
import { withTimeout } from '../../platform/deadline.js';
import { createOutboxRepository } from '../../repositories/outbox.js';
import { importJobId } from '../../jobs/queues.js';
import { createImportRepository } from '../../repositories/imports.js';
import { attributionLine } from '../../domain/libraries/licences.js';
import { importModelInPool } from '../model-checks/import-model-in-pool.js';
import type { AssetService } from '../assets.js';
import type { ServiceDeps } from '../service-deps.js';
import type { LibraryConnectionService } from './library-connection.js';
import { downloadImport, importTempDir } from './download-import.js';
import { failureOf, isUnexpectedFailure } from './import-failure.js';
import { createImportProgress } from './import-progress.js';
import { importableItem } from './importable-item.js';
import { saveImportedAsset } from './save-imported-asset.js';
import { stageClock } from './stage-clock.js';

/**
 * The import pipeline the worker runs for one job (docs/libraries.md, Imports); every failure ends the job `failed`
 * with `{ code, message }`. Finding the job already started means a run died: it ends `interrupted` and is cleaned.
 */
export interface ImportRunnerOptions {
  libraries: Libraries;
  connections: LibraryConnectionService;
  assets: AssetService;
  cpuPool: CpuPool;
  /** Where downloads go while a job runs (default the OS temp folder). */
  tmpRoot?: string;
  /** Time allowed for the whole download (default 5 minutes). */
  downloadTimeoutMs?: number;
  /** Time allowed for each call to the library (LIBRARY_TIMEOUT_MS). */
  callTimeoutMs: number;
}

export function createImportRunner(deps: ServiceDeps, options: ImportRunnerOptions) {
  const repo = createImportRepository(deps.db);
  const outbox = createOutboxRepository(deps.db);
  const { libraries, connections, assets, cpuPool, callTimeoutMs } = options;
  const tmpRoot = options.tmpRoot ?? tmpdir();
  const downloadTimeoutMs = options.downloadTimeoutMs ?? 300_000;

  /** Fails the job and drops its outbox row, in one transaction; removes what a run may have left. */
  async function fail(job: ImportJob, error: { code: string; message: string }) {
    // The download goes first, so a job that reads failed has nothing left on disk.
    await rm(importTempDir(tmpRoot, job.id), { recursive: true, force: true }).catch(() => {});
    await deps.db.transaction(async (tx) => {
      await repo.fail(tx, job.id, error);
      await outbox.complete(tx, importJobId(job.id));
    });
    await cleanUp(job);
  }

  /** The job's temporary folder, and its asset file unless an asset row claims it. */
  async function cleanUp(job: ImportJob) {
    await rm(importTempDir(tmpRoot, job.id), { recursive: true, force: true }).catch(() => {});
    const saved = await assets.get(job.workspaceId, job.id).catch(() => null);
    if (!saved) await deps.storage.delete(storageKeys.asset(job.workspaceId, job.id)).catch(() => {});
  }

  return {
    cleanUp,

    /** Runs the job `importId` once; never throws for what the library or the model did (that ends the job). */
    async run(importId: string, signal: AbortSignal): Promise<{ status: string; code?: string }> {
      const job = await repo.startRun(importId);
      if (!job) return { status: 'missing' };
      if (job.status === 'completed' || job.status === 'failed') {
        await outbox.complete(deps.db, importJobId(job.id));
        return { status: job.status };
      }
      if (job.runs > 0) {
        await fail(job, {
          code: 'interrupted',
          message: 'The import was interrupted (the worker stopped); start it again.',
        });
        return { status: 'failed', code: 'interrupted' };
      }
      const adapter = libraries.byId[job.provider];
      const progress = createImportProgress(repo, deps.log, job.id);
      const clock = stageClock();
      const dir = importTempDir(tmpRoot, job.id);
      let item: LibraryItem | null = null;
      try {
        progress.report({ status: 'downloading', progress: 1, stage: `Checking the model at ${adapter.name}` }, true);
        const call = <T>(work: (s: AbortSignal) => Promise<T>) =>
          withTimeout(
            (s) => work(AbortSignal.any([s, signal])),
            callTimeoutMs,
            `${adapter.name} did not answer within ${callTimeoutMs} ms`,
            signal,
          );
        // The model (its licence now) and the download link, asked at once: the licence is judged
        // before a byte is downloaded, and a link is used only when it allows the import.
        const planned = (async () => {
          const accessToken =
            job.provider === 'library_b' ? await connections.accessToken(job.personId ?? '', signal) : undefined;
          return call((s) => adapter.downloadPlan(job.providerAssetId, { signal: s, accessToken }));
        })();
        // Both settle before the run goes on or ends: nothing of the link request runs on.
        const [model, link] = await Promise.allSettled([importableItem(adapter, job, call), planned]);
        if (model.status === 'rejected') throw model.reason;
        item = model.value;
        if (link.status === 'rejected') throw link.reason;
        clock.lap('library');

        await rm(dir, { recursive: true, force: true });
        await mkdir(dir, { recursive: true });
        const source = await downloadImport({
          libraries,
          provider: job.provider,
          name: item.name,
          plan: link.value,
          dir,
          timeoutMs: downloadTimeoutMs,
          signal,
          progress,
        });
        clock.lap('download');

        progress.report(
          { status: 'processing', progress: 65, stage: 'Unpacking, converting to GLB and checking the model' },
          true,
        );
        const attribution = attributionLine(item, item, adapter.credit);
        const checked = await importModelInPool(
          cpuPool,
          { source, copyright: attribution, maxBytes: MAX_MODEL_BYTES },
          { signal },
        );
        await rm(dir, { recursive: true, force: true });
        clock.lap('checks');

        progress.report({ status: 'saving', progress: 90, stage: 'Saving the asset' }, true);
        await progress.flush();
        await saveImportedAsset({ assets, repo, outbox }, { job, item, adapter, attribution, source, checked });
        clock.lap('save');
        deps.log.info(
          { jobId: job.id, provider: job.provider, ms: clock.laps, poolMs: checked.timings },
          'import completed',
        );
        return { status: 'completed' };
      } catch (error) {
        await progress.flush();
        // Stopped from outside (the worker shutting down, the run's own time limit): interrupted.
        const failure = signal.aborted
          ? { code: 'interrupted', message: 'The import was interrupted (the worker stopped it); start it again.' }
          : failureOf(error, item, adapter.name);
        if (isUnexpectedFailure(error, failure))
          deps.log.warn({ jobId: job.id, provider: job.provider, err: error }, 'import failed');
        await fail(job, failure);
        return { status: 'failed', code: failure.code };
      }
    },

    /** BullMQ failed the job for good (it stalled every worker that took it): the import ends interrupted. */
    async giveUp(importId: string): Promise<void> {
      const job = await repo.byId(importId);
      if (job)
        await fail(job, {
          code: 'interrupted',
          message: 'The import was interrupted again and again; start it again.',
        });
    },
  };
}

export type ImportRunner = ReturnType<typeof createImportRunner>;
