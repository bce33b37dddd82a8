import type { Job } from 'bullmq';
import { IMPORT_JOB, QUEUES, type ImportJobData } from '#core/jobs/queues.js';
import { defineJob } from './define-job.js';

/**
 * A run ends its own job; a second run of a started job means the first died, and ends it `interrupted`.
 * Not retried: the person starts the import again.
 */
export const libraryImport = defineJob({
  queue: QUEUES.imports,
  name: IMPORT_JOB,
  // An 80 MB download (5 minutes at most) and the checks (3 minutes at most) and the save.
  timeoutMs: 10 * 60_000,
  attempts: 1,
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
  async process(job: Job<ImportJobData>, { deps, signal }) {
    return deps.imports.run(job.data.importId, signal);
  },
  /** Failed for good without a run ending it (it stalled again and again): the import ends interrupted. */
  failed: (job, deps) => deps.imports.giveUp(job.data.importId),
});
