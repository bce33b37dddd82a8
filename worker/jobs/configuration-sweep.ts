import { QUEUES } from '#core/jobs/queues.js';
import { sweepExpiredConfigurations } from '#core/services/configuration-retention.js';
import { defineJob } from './define-job.js';

/** How often the sweep runs: retention is counted in days, an hour late is nothing. */
export const CONFIGURATION_SWEEP_INTERVAL_MS = 3600_000;

/** Deletes cart configurations past their retention (docs/cart.md); a job scheduler runs it hourly. */
export const configurationSweep = defineJob({
  queue: QUEUES.maintenance,
  name: 'configuration-sweep',
  timeoutMs: 30 * 60_000,
  removeOnComplete: 10,
  removeOnFail: 10,
  async process(_job, { deps }) {
    const removed = await sweepExpiredConfigurations(deps);
    if (removed > 0) deps.log.info({ removed }, 'configuration sweep removed configurations past their retention');
    return { removed };
  },
});
