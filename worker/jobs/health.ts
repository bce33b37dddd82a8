import { QUEUES } from '#core/jobs/queues.js';
import { failingDependencies } from '#core/platform/dependency-health.js';
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
    const failing = await failingDependencies({ db: deps.db, redis: deps.producerRedis });
    if (failing.length > 0) throw new Error(`not answering: ${failing.join(', ')}`);
    return { ok: true, pid: process.pid, at: new Date().toISOString() };
  },
});
