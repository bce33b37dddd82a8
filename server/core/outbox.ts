import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Executor } from './db/client.js';
import { outbox } from './db/schema/index.js';
import type { QueueName, Queues } from './queues.js';

/**
 * Store-first background work. `addToOutbox` runs inside the caller's transaction; after commit
 * `dispatchOutbox` hands the rows to BullMQ (the fast path), and the worker's relay calls it
 * again for anything still there: never enqueued, or enqueued long ago and not finished
 * (Redis restarted empty, a worker died). A processor removes its row with `completeOutbox`
 * when the job is finished, in the same transaction as its result.
 */
export interface OutboxJob {
  queue: QueueName;
  name: string;
  /** Deterministic, so a second enqueue of the same work is absorbed by BullMQ. */
  jobId: string;
  data: Record<string, unknown>;
}

export async function addToOutbox(tx: Executor, jobs: OutboxJob[]): Promise<number[]> {
  if (jobs.length === 0) return [];
  const rows = await tx
    .insert(outbox)
    .values(jobs.map((job) => ({ queue: job.queue, jobName: job.name, jobId: job.jobId, payload: job.data })))
    .onConflictDoNothing({ target: outbox.jobId })
    .returning({ id: outbox.id });
  return rows.map((row) => row.id);
}

export interface DispatchOptions {
  /** Only these rows (the fast path after a commit). */
  ids?: number[];
  /** Re-enqueue rows enqueued longer ago than this and still present. */
  resendAfterMs: number;
  batchSize?: number;
}

/** Enqueues due outbox rows; returns how many were handed to BullMQ. Safe to run concurrently. */
export async function dispatchOutbox(db: Db, queues: Queues, options: DispatchOptions): Promise<number> {
  const { ids, resendAfterMs, batchSize = 100 } = options;
  if (ids && ids.length === 0) return 0;
  const staleBefore = new Date(Date.now() - resendAfterMs);
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outbox)
      .where(
        and(
          ids ? inArray(outbox.id, ids) : undefined,
          lte(outbox.nextAttemptAt, new Date()),
          or(isNull(outbox.lastEnqueuedAt), lte(outbox.lastEnqueuedAt, staleBefore)),
        ),
      )
      .orderBy(outbox.id)
      .limit(batchSize)
      .for('update', { skipLocked: true });
    let sent = 0;
    for (const row of due) {
      try {
        await queues[row.queue as QueueName].add(row.jobName, row.payload, { jobId: row.jobId });
        await tx
          .update(outbox)
          .set({ lastEnqueuedAt: new Date(), enqueueCount: sql`${outbox.enqueueCount} + 1` })
          .where(eq(outbox.id, row.id));
        sent += 1;
      } catch {
        // Redis is unreachable: leave the row for the relay and back off a little.
        await tx.update(outbox).set({ nextAttemptAt: new Date(Date.now() + 2000) }).where(eq(outbox.id, row.id));
        break;
      }
    }
    return sent;
  });
}

/** Removes a finished job's row; call it in the transaction that records the job's result. */
export async function completeOutbox(tx: Executor, jobId: string): Promise<void> {
  await tx.delete(outbox).where(eq(outbox.jobId, jobId));
}
