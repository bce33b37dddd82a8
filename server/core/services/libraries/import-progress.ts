import type { ImportProgress, ImportRepository } from '../../repositories/imports.js';
import type { ServiceLog } from '../service-deps.js';

/** Least time between two progress writes of one job (forced ones excepted). */
const PROGRESS_EVERY_MS = 300;

/**
 * An import job's progress, written in order and at most every {@link PROGRESS_EVERY_MS} unless
 * forced; a write that fails is logged, never fails the run.
 */
export function createImportProgress(repo: ImportRepository, log: ServiceLog, jobId: string) {
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  return {
    report(values: ImportProgress, force = false) {
      const now = Date.now();
      if (!force && now - last < PROGRESS_EVERY_MS) return;
      last = now;
      pending = pending
        .then(() => repo.progress(jobId, values))
        .catch((error: unknown) => log.warn({ err: error, jobId }, 'import progress not recorded'));
    },
    /** Settles once every write reported so far is done. */
    flush: () => pending,
  };
}

export type ImportProgressReporter = ReturnType<typeof createImportProgress>;
