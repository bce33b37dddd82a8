import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ImportJob } from '../../platform/db/schema/index.js';
import type { Tx } from '../../platform/db/client.js';
import { storageKeys } from '../../platform/storage/index.js';
import {
  DownloadTooLargeError,
  MAX_DOWNLOAD_BYTES,
  MAX_MODEL_BYTES,
  planSize,
  type DownloadPlan,
  type Libraries,
  type LibraryItem,
} from '../../platform/libraries/index.js';
import type { CpuPool } from '../../platform/cpu-pool.js';
import { SsrfError } from '../../platform/ssrf-guard.js';
import { TimeoutError, withTimeout } from '../../platform/deadline.js';
import { completeOutbox } from '../../repositories/outbox.js';
import { importJobId } from '../../jobs/import-jobs.js';
import { createImportRepository, type ImportProgress } from '../../repositories/imports.js';
import { AppError } from '../../domain/errors.js';
import { LibraryError } from '../../domain/libraries/library-errors.js';
import { attributionLine } from '../../domain/libraries/licences.js';
import { ModelFileError } from '../../domain/models/model-file-error.js';
import { importModelInPool } from '../model-checks/import-model-in-pool.js';
import type { ImportSource } from '../model-checks/import-model-task.js';
import type { AssetService } from '../assets.js';
import type { ServiceDeps } from '../service-deps.js';
import type { LibraryConnectionService } from './library-connection.js';

/**
 * The import pipeline the worker runs for one job (readiness.md section 4): re-read the model and
 * take a download link (library_b with the person's token) at once, check its licence, stream
 * it to the job's temporary folder with byte and time limits, then in the CPU pool unpack it
 * safely and check it as POST /assets does (the validator and the conversion to GLB side by
 * side), write the credit and score readiness, and save the asset (file and row) and complete
 * the job in one transaction. Every failure ends the job `failed` with `{ code, message }`; a run that finds its job already started (the first
 * run died) ends it `interrupted` and removes what that run may have left.
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

export class ImportFailure extends Error {
  override name = 'ImportFailure';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const PROGRESS_EVERY_MS = 300;
const MB = 1_000_000;

/** Milliseconds per stage of a run, for the completion log (where an import spends its time). */
function stageClock() {
  let last = performance.now();
  const laps: Record<string, number> = {};
  return {
    laps,
    lap(name: string) {
      const now = performance.now();
      laps[name] = Math.round(now - last);
      last = now;
    },
  };
}

export function importTempDir(tmpRoot: string, jobId: string): string {
  return path.join(tmpRoot, 'config-share-imports', jobId);
}

/** A relative path from a library, checked to stay in the model's folder. */
function safeRelative(raw: string): string {
  const normalized = path.posix.normalize(raw.replace(/\\/g, '/'));
  if (
    normalized === '..' ||
    normalized.startsWith('../') ||
    path.posix.isAbsolute(normalized) ||
    normalized.includes('\0') ||
    /^[a-z]:/i.test(normalized)
  ) {
    throw new ImportFailure('invalid_file', `The library listed a file outside the model's folder ("${raw}").`);
  }
  return normalized;
}

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The job error of anything a run throws. */
export function failureOf(
  error: unknown,
  item: { name: string } | null,
  provider: string,
): { code: string; message: string } {
  if (error instanceof ImportFailure) return { code: error.code, message: error.message };
  if (error instanceof ModelFileError) return { code: error.code, message: error.message };
  if (error instanceof DownloadTooLargeError)
    return { code: 'too_large', message: `The download is larger than ${MAX_DOWNLOAD_BYTES / MB} MB.` };
  if (error instanceof LibraryError) {
    if (error.kind === 'auth')
      return { code: 'auth_required', message: `${provider} refused the account's token; connect the account again.` };
    if (error.kind === 'not_found')
      return {
        code: 'unavailable',
        message: `${provider} no longer offers ${item ? `"${item.name}"` : 'this model'} for download.`,
      };
    return { code: 'unavailable', message: `${provider} is not available: ${error.message}` };
  }
  if (error instanceof SsrfError)
    return { code: 'unavailable', message: 'The library gave a download address that is not allowed.' };
  if (error instanceof TimeoutError || (error as Error)?.name === 'TimeoutError')
    return { code: 'unavailable', message: 'The download took too long.' };
  if (error instanceof AppError && error.code === 'quota_exceeded')
    return { code: 'quota_exceeded', message: error.message };
  return {
    code: 'unavailable',
    message: `The model could not be downloaded (${(error as Error)?.message ?? 'unknown error'}).`,
  };
}

export function createImportRunner(deps: ServiceDeps, options: ImportRunnerOptions) {
  const repo = createImportRepository(deps.db);
  const { libraries, connections, assets, cpuPool, callTimeoutMs } = options;
  const tmpRoot = options.tmpRoot ?? tmpdir();
  const downloadTimeoutMs = options.downloadTimeoutMs ?? 300_000;

  /** Fails the job and drops its outbox row, in one transaction; removes what a run may have left. */
  async function fail(job: ImportJob, error: { code: string; message: string }) {
    await deps.db.transaction(async (tx) => {
      await repo.fail(tx, job.id, error);
      await completeOutbox(tx, importJobId(job.id));
    });
    await cleanUp(job);
  }

  /** The job's temporary folder, and its asset file unless an asset row claims it. */
  async function cleanUp(job: ImportJob) {
    await rm(importTempDir(tmpRoot, job.id), { recursive: true, force: true }).catch(() => {});
    const saved = await assets.get(job.workspaceId, job.id).catch(() => null);
    if (!saved) await deps.storage.delete(storageKeys.asset(job.workspaceId, job.id)).catch(() => {});
  }

  function progressReporter(jobId: string) {
    let last = 0;
    let pending: Promise<void> = Promise.resolve();
    return {
      report(values: ImportProgress, force = false) {
        const now = Date.now();
        if (!force && now - last < PROGRESS_EVERY_MS) return;
        last = now;
        pending = pending
          .then(() => repo.progress(jobId, values))
          .catch((error: unknown) => deps.log.warn({ err: error, jobId }, 'import progress not recorded'));
      },
      flush: () => pending,
    };
  }

  async function download(
    job: ImportJob,
    item: LibraryItem,
    plan: DownloadPlan,
    dir: string,
    signal: AbortSignal,
    progress: ReturnType<typeof progressReporter>,
  ): Promise<ImportSource> {
    const planned = planSize(plan);
    if (planned !== undefined && planned > MAX_DOWNLOAD_BYTES) throw new DownloadTooLargeError(MAX_DOWNLOAD_BYTES);
    const stage = `Downloading "${item.name}" from ${libraries.byId[job.provider].name}`;
    let done = 0;
    const onProgress = (received: number, total: number | null) => {
      const bytesTotal = planned ?? total;
      const bytesReceived = done + received;
      progress.report({
        bytesReceived,
        bytesTotal,
        progress: bytesTotal ? Math.min(60, 5 + Math.floor((55 * bytesReceived) / bytesTotal)) : 10,
        stage,
      });
    };
    const fetchTo = (url: string, file: string, budget: number) =>
      withTimeout(
        (deadline) =>
          libraries.http.download(job.provider, url, file, {
            signal: AbortSignal.any([deadline, signal]),
            maxBytes: budget,
            onProgress,
          }),
        downloadTimeoutMs,
        'the download took too long',
        signal,
      );
    if (plan.kind === 'archive' || plan.kind === 'glb') {
      const file = path.join(dir, plan.kind === 'archive' ? 'download.zip' : 'download.glb');
      done += await fetchTo(plan.url, file, MAX_DOWNLOAD_BYTES);
      progress.report({ bytesReceived: done, bytesTotal: planned ?? done }, true);
      return { kind: plan.kind, path: file };
    }
    const files: string[] = [];
    for (const part of [plan.main, ...plan.includes]) {
      const relative = safeRelative(part.path);
      const file = path.join(dir, 'files', relative);
      await mkdir(path.dirname(file), { recursive: true });
      done += await fetchTo(part.url, file, MAX_DOWNLOAD_BYTES - done);
      if (part.md5 && (await md5Of(file)) !== part.md5.toLowerCase())
        throw new ImportFailure('invalid_file', `The file "${relative}" does not match the checksum the library gave.`);
      files.push(relative);
    }
    progress.report({ bytesReceived: done, bytesTotal: planned ?? done }, true);
    return { kind: 'files', dir: path.join(dir, 'files'), files };
  }

  return {
    cleanUp,

    /** Runs the job `importId` once; never throws for what the library or the model did (that ends the job). */
    async run(importId: string, signal: AbortSignal): Promise<{ status: string; code?: string }> {
      const job = await repo.startRun(importId);
      if (!job) return { status: 'missing' };
      if (job.status === 'completed' || job.status === 'failed') {
        await completeOutbox(deps.db, importJobId(job.id));
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
      const progress = progressReporter(job.id);
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
        const judged = (async () => {
          const found = await call((s) => adapter.get(job.providerAssetId, { signal: s }));
          if (!found) throw new ImportFailure('unavailable', `${adapter.name} no longer offers this model.`);
          if (found.licenseTier === 'blocked')
            throw new ImportFailure(
              'license_blocked',
              `The model's licence (${found.license}) does not allow an import any more.`,
            );
          if (found.licenseTier === 'conditions' && !job.licenseAcknowledged)
            throw new ImportFailure(
              'license_ack_required',
              'The licence changed to one with conditions; acknowledge it and import again.',
            );
          return found;
        })();
        // Both settle before the run goes on or ends: nothing of the link request runs on.
        const [model, link] = await Promise.allSettled([judged, planned]);
        if (model.status === 'rejected') throw model.reason;
        item = model.value;
        if (link.status === 'rejected') throw link.reason;
        const plan = link.value;
        clock.lap('library');

        await rm(dir, { recursive: true, force: true });
        await mkdir(dir, { recursive: true });
        const source = await download(job, item, plan, dir, signal, progress);
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
        const { readiness } = checked;
        const externalSource = {
          library: job.provider,
          modelId: item.providerAssetId,
          name: item.name,
          sourceUrl: item.sourceUrl,
          author: item.author,
          license: item.license,
          licenseId: item.licenseId,
          licenseUrl: item.licenseUrl,
          licenseTier: item.licenseTier,
          commercialUseAllowed: item.commercialUseAllowed,
          attributionRequired: item.attributionRequired,
          attribution,
          providerCredit: adapter.credit,
          category: job.category,
          importedAt: new Date().toISOString(),
        };
        const fileStem =
          item.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, '')
            .slice(0, 80) || 'model';
        // The GLB is written only now, once every check passed, and in the same transaction as its row.
        await assets.createWithFile(
          job.workspaceId,
          {
            id: job.id,
            storageKey: storageKeys.asset(job.workspaceId, job.id),
            name: item.name.slice(0, 200),
            fileName: `${fileStem}.glb`,
            contentType: 'model/gltf-binary',
            sizeBytes: checked.glb.byteLength,
            sourceFormat: source.kind === 'glb' ? 'glb' : source.kind === 'files' ? 'gltf' : 'zip',
            modelInfo: checked.info,
            externalSource,
            readinessScore: readiness.score,
            readinessLevel: readiness.level,
            createdBy: job.personId,
          },
          checked.glb,
          {
            async beforeWrite(tx) {
              const row = await repo.lock(tx, job.id);
              if (!row || row.status === 'completed' || row.status === 'failed')
                throw new ImportFailure('interrupted', 'The import was ended while it was saving.');
            },
            async inTransaction(tx, asset) {
              await repo.complete(tx, job.id, {
                assetId: asset.id,
                readiness: { score: readiness.score, level: readiness.level, checks: readiness.checks },
                notices: readiness.notices,
              });
              await completeOutbox(tx, importJobId(job.id));
            },
          },
        );
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
        if (
          failure.code === 'unavailable' &&
          !(error instanceof ImportFailure) &&
          !(error instanceof LibraryError) &&
          !(error instanceof TimeoutError)
        ) {
          deps.log.warn({ jobId: job.id, provider: job.provider, err: error }, 'import failed');
        }
        await fail(job, failure);
        return { status: 'failed', code: failure.code };
      }
    },

    /** The relay gave the job up (it killed or stalled every worker that took it): ends it interrupted, in `tx`. */
    async giveUp(tx: Tx, importId: string): Promise<void> {
      await repo.fail(tx, importId, {
        code: 'interrupted',
        message: 'The import was interrupted again and again; start it again.',
      });
      const job = await repo.byId(importId, tx);
      // After the commit would be exact; the files are the job's own, and removing them early is harmless.
      if (job) await cleanUp(job);
    },
  };
}

export type ImportRunner = ReturnType<typeof createImportRunner>;
