import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Executor } from './db/client.js';
import { outbox, type OutboxRow } from './db/schema/index.js';
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
  /** Rows per call (default 100). */
  batchSize?: number;
  /** How long one `queue.add` may take before the row is left for later (default 3000 ms). */
  addTimeoutMs?: number;
}

/** How long a row waits after Redis refused it. */
const RETRY_AFTER_FAILURE_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`queue.add took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Enqueues due outbox rows; returns how many were handed to BullMQ. Safe to run concurrently
 * (rows are claimed with SKIP LOCKED). Times come from the database clock, the same clock that
 * stamped the rows. Rows never enqueued before go to each queue in one `addBulk`.
 *
 * A row that was enqueued before and is still here means its job never finished as far as
 * Postgres knows. If BullMQ still holds that job as completed or failed (a job failed by the
 * stalled checker, or a processor that could not record its final failure), a plain `add` with
 * the same id would be ignored forever, so that job is removed and added again: processors are
 * idempotent against Postgres, so running one again is always safe.
 */
export async function dispatchOutbox(db: Db, queues: Queues, options: DispatchOptions): Promise<number> {
  const { ids, resendAfterMs, batchSize = 100, addTimeoutMs = 3000 } = options;
  if (ids && ids.length === 0) return 0;
  const staleBefore = sql`now() - ${Math.round(resendAfterMs)}::int * interval '1 millisecond'`;
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outbox)
      .where(
        and(
          ids ? inArray(outbox.id, ids) : undefined,
          lte(outbox.nextAttemptAt, sql`now()`),
          or(isNull(outbox.lastEnqueuedAt), lte(outbox.lastEnqueuedAt, staleBefore)),
        ),
      )
      .orderBy(outbox.id)
      .limit(batchSize)
      .for('update', { skipLocked: true });
    const sent: number[] = [];
    const failed: number[] = [];
    const unknown: number[] = [];

    const byQueue = new Map<QueueName, OutboxRow[]>();
    const resends: OutboxRow[] = [];
    for (const row of due) {
      if (!(row.queue in queues)) unknown.push(row.id);
      else if (row.lastEnqueuedAt !== null) resends.push(row);
      else byQueue.set(row.queue as QueueName, [...(byQueue.get(row.queue as QueueName) ?? []), row]);
    }
    for (const [name, rows] of byQueue) {
      try {
        await withTimeout(queues[name].addBulk(rows.map((row) => ({ name: row.jobName, data: row.payload, opts: { jobId: row.jobId } }))), addTimeoutMs);
        sent.push(...rows.map((row) => row.id));
      } catch {
        failed.push(...rows.map((row) => row.id));
      }
    }
    for (const row of resends) {
      const queue = queues[row.queue as QueueName];
      try {
        await withTimeout(
          (async () => {
            const state = await queue.getJobState(row.jobId);
            if (state === 'completed' || state === 'failed') await queue.remove(row.jobId);
            await queue.add(row.jobName, row.payload, { jobId: row.jobId });
          })(),
          addTimeoutMs,
        );
        sent.push(row.id);
      } catch {
        failed.push(row.id);
      }
    }

    if (sent.length > 0) {
      await tx.update(outbox).set({ lastEnqueuedAt: sql`now()`, enqueueCount: sql`${outbox.enqueueCount} + 1` }).where(inArray(outbox.id, sent));
    }
    if (failed.length > 0) {
      // Redis is unreachable (or slow): leave the rows for the relay and back off a little.
      await tx
        .update(outbox)
        .set({ nextAttemptAt: sql`now() + ${RETRY_AFTER_FAILURE_MS}::int * interval '1 millisecond'` })
        .where(inArray(outbox.id, failed));
    }
    if (unknown.length > 0) {
      // A queue this process does not know (another version's): not ours to block on.
      await tx.update(outbox).set({ nextAttemptAt: sql`now() + interval '1 minute'` }).where(inArray(outbox.id, unknown));
    }
    return sent.length;
  });
}

/**
 * The fast path after a commit, coalesced: ids nudged within a few milliseconds are dispatched
 * together, in one transaction and one `addBulk` per queue, so a burst of submits costs Redis and
 * Postgres one round trip each instead of one per request. Never throws: the relay is the safety net.
 */
export function createOutboxNudger(db: Db, queues: Queues, options: { resendAfterMs: number; delayMs?: number; onError?: (error: unknown) => void }) {
  const pending = new Set<number>();
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> = Promise.resolve();

  function flush() {
    timer = null;
    const ids = [...pending];
    pending.clear();
    inFlight = inFlight
      .then(() => dispatchOutbox(db, queues, { ids, resendAfterMs: options.resendAfterMs, batchSize: ids.length }))
      .then(() => undefined, (error: unknown) => options.onError?.(error));
  }

  return {
    nudge(ids: number[]) {
      for (const id of ids) pending.add(id);
      if (pending.size > 0 && !timer) timer = setTimeout(flush, options.delayMs ?? 5);
    },
    /** Dispatches what is pending now and waits for it (graceful shutdown, tests). */
    async drain() {
      if (timer) {
        clearTimeout(timer);
        flush();
      }
      await inFlight;
    },
  };
}

export type OutboxNudger = ReturnType<typeof createOutboxNudger>;

/** Removes a finished job's row; call it in the transaction that records the job's result. */
export async function completeOutbox(tx: Executor, jobId: string): Promise<void> {
  await tx.delete(outbox).where(eq(outbox.jobId, jobId));
}
