import { sql } from 'drizzle-orm';
import { QUEUES } from '../../server/core/jobs/queues.js';
import { defineJob } from './define-job.js';

/**
 * The `health` job: proves end to end that a worker takes jobs from Redis and reaches Postgres.
 * It changes nothing; operators add it themselves (it has no outbox row).
 */
export const health = defineJob({
  queue: QUEUES.health,
  name: 'health',
  timeoutMs: 10_000,
  async process(_job, { deps }): Promise<{ ok: true; pid: number; at: string }> {
    await deps.db.execute(sql`select 1`);
    return { ok: true, pid: process.pid, at: new Date().toISOString() };
  },
});
