import type { Job } from 'bullmq';
import { sql } from 'drizzle-orm';
import type { WorkerDeps } from '../deps.js';

/**
 * The `health` job: proves end to end that a worker takes jobs from Redis and reaches Postgres.
 * It changes nothing.
 */
export function createHealthProcessor(deps: WorkerDeps) {
  return async function health(_job: Job): Promise<{ ok: true; pid: number; at: string }> {
    await deps.db.execute(sql`select 1`);
    return { ok: true, pid: process.pid, at: new Date().toISOString() };
  };
}
