import { QUEUES } from '#core/jobs/queues.js';
import { sweepUnclaimedFiles } from '#core/services/storage-sweep.js';
import { defineJob } from './define-job.js';

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
    const result = await sweepUnclaimedFiles(deps, { graceMs: deps.config.storage.sweepGraceMs });
    if (result.removed.length > 0)
      deps.log.info(
        { removed: result.removed.length, examined: result.examined },
        'storage sweep removed unclaimed objects',
      );
    return { examined: result.examined, removed: result.removed.length };
  },
});
