import { QUEUES } from '#core/jobs/queues.js';
import { sweepVisitorEvents } from '#core/services/visitor-event-retention.js';
import { defineJob } from './define-job.js';

/** How often the sweep runs: retention is counted in days, an hour late is nothing. */
export const VISITOR_EVENT_SWEEP_INTERVAL_MS = 3600_000;

/**
 * Deletes expired visitor events and past session rows (docs/api.md, Visitor events), keeping the day counters. A job
 * scheduler runs it hourly; a lost run is simply the next one.
 */
export const visitorEventSweep = defineJob({
  queue: QUEUES.maintenance,
  name: 'visitor-event-sweep',
  timeoutMs: 30 * 60_000,
  removeOnComplete: 10,
  removeOnFail: 10,
  async process(_job, { deps }) {
    const result = await sweepVisitorEvents(deps.db, { retentionDays: deps.config.visitorEventRetentionDays });
    if (result.events > 0) deps.log.info({ ...result }, 'visitor event sweep removed events past their retention');
    return result;
  },
});
