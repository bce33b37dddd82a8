import { QUEUES } from '#core/jobs/queues.js';
import { sweepUnclaimedFiles } from '#core/services/storage-sweep.js';
import { defineJob } from './define-job.js';

/** Objects no row claims are removed once this old: longer than any write takes to commit. */
const STORAGE_SWEEP_GRACE_MS = 6 * 3600_000;
/** How often a worker runs the sweeper (one run at a time across all workers). */
export const STORAGE_SWEEP_INTERVAL_MS = 3600_000;

/**
 * Removes unclaimed stored objects older than STORAGE_SWEEP_GRACE_MS. A job scheduler runs it, with no
 * outbox row: a lost run is simply the next one.
 */
export const storageSweep = defineJob({
  queue: QUEUES.maintenance,
  name: 'storage-sweep',
  timeoutMs: 30 * 60_000,
  removeOnComplete: 10,
  removeOnFail: 10,
  async process(_job, { deps }) {
    const result = await sweepUnclaimedFiles(deps, { graceMs: STORAGE_SWEEP_GRACE_MS });
    if (result.removed.length > 0)
      deps.log.info(
        { removed: result.removed.length, examined: result.examined },
        'storage sweep removed unclaimed objects',
      );
    return { examined: result.examined, removed: result.removed.length };
  },
});
