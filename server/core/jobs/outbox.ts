import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../platform/db/client.js';
import { outbox, type OutboxRow } from '../platform/db/schema/index.js';
import type { QueueName, Queues } from './queues.js';

/**
 * Store-first background work. Rows are written inside the caller's transaction: by
 * `addToOutbox` (then `dispatchOutbox` claims and hands them to BullMQ after the commit), or, on
 * the submit path, already marked enqueued and handed over by `createOutboxNudger` without
 * further statements. The worker's relay calls `dispatchOutbox` for anything still there: never
 * enqueued, or enqueued long ago and not finished (Redis restarted empty, a worker or server
 * died). A processor removes its row with `completeOutbox` when the job is finished, in the same
 * transaction as its result.
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
  /** How long the whole batch may spend in Redis; rows not handed over by then wait for the next sweep (default 3000 ms). */
  deadlineMs?: number;
  /**
   * Called instead of enqueuing a row whose job was lost again after `maxEnqueues` hand-overs
   * (a job that kills or stalls every worker that takes it), inside the transaction that then
   * deletes the row: the place to record the work's final failure. Without it rows are
   * re-enqueued without limit.
   */
  onGiveUp?: (tx: Tx, row: OutboxRow) => Promise<void>;
  /** Hand-overs to BullMQ after which a lost job is given up, when `onGiveUp` is set (default 5). */
  maxEnqueues?: number;
}

/** What one dispatch call did with the rows it claimed. */
export interface DispatchResult {
  claimed: number;
  /** Handed to BullMQ (added, or re-added after it lost the job). */
  sent: number;
  /** Still in BullMQ, waiting, delayed or running: nothing to do but look again later. */
  alive: number;
  /** Redis refused or was too slow: retried after a short pause. */
  failed: number;
  /** Given to `onGiveUp` and removed. */
  gaveUp: number;
}

/** A claimed row is invisible to other dispatchers this long: far longer than `deadlineMs` plus the marking. */
const CLAIM_MS = 30_000;
/** How long a row waits after Redis refused it. */
const RETRY_AFTER_FAILURE_MS = 2000;
const DEFAULT_MAX_ENQUEUES = 5;

const inMs = (ms: number) => sql`now() + ${Math.round(ms)}::int * interval '1 millisecond'`;

/** Job states in which BullMQ will still run the job (or is running it): re-adding would be a no-op. */
const GONE_STATES = new Set(['completed', 'failed', 'unknown']);

type Resend = 'sent' | 'alive' | 'give-up';

/** A deadline for a batch of Redis calls: `race` rejects once it has passed; `clear` when done. */
function redisDeadline(ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis took longer than ${ms} ms`)), ms);
  });
  expired.catch(() => {});
  return { race: <T>(work: Promise<T>) => Promise.race([work, expired]), clear: () => clearTimeout(timer) };
}

/** Rows never handed to BullMQ before, as one `addBulk` per queue: the ids it took and the ids it refused. */
async function addInBulk(queues: Queues, jobs: HeldOutboxJob[], race: <T>(work: Promise<T>) => Promise<T>): Promise<{ sent: number[]; refused: number[] }> {
  const byQueue = new Map<QueueName, HeldOutboxJob[]>();
  for (const job of jobs) {
    const list = byQueue.get(job.queue);
    if (list) list.push(job);
    else byQueue.set(job.queue, [job]);
  }
  const sent: number[] = [];
  const refused: number[] = [];
  await Promise.all(
    [...byQueue].map(async ([name, batch]) => {
      const ids = batch.map((job) => job.id);
      try {
        await race(queues[name].addBulk(batch.map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.jobId } }))));
        sent.push(...ids);
      } catch {
        refused.push(...ids);
      }
    }),
  );
  return { sent, refused };
}

/**
 * Enqueues due outbox rows. Safe to run concurrently and never holds a Postgres transaction
 * while it talks to Redis:
 * 1. one short statement claims due rows (FOR UPDATE SKIP LOCKED inside, then pushes their
 *    `next_attempt_at` CLAIM_MS ahead, so no other dispatcher takes them meanwhile);
 * 2. Redis, outside any transaction, under one deadline for the batch: rows never enqueued
 *    before go to each queue in one `addBulk`, re-sends run in parallel;
 * 3. short statements record the outcome (sent: due for a re-send check after `resendAfterMs`;
 *    failed: due again in RETRY_AFTER_FAILURE_MS).
 * Times come from the database clock, the one that stamped the rows.
 *
 * A row that was enqueued before and is still here means its job never finished as far as
 * Postgres knows. If BullMQ still holds that job waiting, delayed or active, nothing is done. If
 * it holds it as completed or failed (a job failed by the stalled checker, or a processor that
 * could not record its final failure), a plain `add` with the same id would be ignored forever,
 * so that job is removed and added again: processors are idempotent against Postgres, so running
 * one again is always safe. Only these re-adds count towards `maxEnqueues`.
 */
export async function dispatchOutbox(db: Db, queues: Queues, options: DispatchOptions): Promise<DispatchResult> {
  const { ids, resendAfterMs, batchSize = 100, deadlineMs = 3000, onGiveUp, maxEnqueues = DEFAULT_MAX_ENQUEUES } = options;
  const result: DispatchResult = { claimed: 0, sent: 0, alive: 0, failed: 0, gaveUp: 0 };
  if (ids && ids.length === 0) return result;

  // 1. Claim. Rows of a queue this process does not know (another version's) are left alone.
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        ids ? inArray(outbox.id, ids) : undefined,
        inArray(outbox.queue, Object.keys(queues)),
        lte(outbox.nextAttemptAt, sql`now()`),
        or(isNull(outbox.lastEnqueuedAt), lte(outbox.lastEnqueuedAt, inMs(-resendAfterMs))),
      ),
    )
    .orderBy(outbox.id)
    .limit(batchSize)
    .for('update', { skipLocked: true });
  // ARRAY(...) runs the locking subquery exactly once (an IN (...) may be re-planned as a join).
  const claimed = await db
    .update(outbox)
    .set({ nextAttemptAt: inMs(CLAIM_MS) })
    .where(sql`${outbox.id} = any(array(${due}))`)
    .returning();
  result.claimed = claimed.length;
  if (claimed.length === 0) return result;

  // 2. Redis, under one deadline for the whole batch.
  const deadline = redisDeadline(deadlineMs);

  const sent: number[] = [];
  const alive: number[] = [];
  const failed: number[] = [];
  const giveUp: OutboxRow[] = [];
  const sorted = claimed.sort((a, b) => a.id - b.id);
  const fresh = sorted.filter((row) => row.lastEnqueuedAt === null).map((row) => ({ id: row.id, queue: row.queue as QueueName, name: row.jobName, jobId: row.jobId, data: row.payload }));
  const resends = sorted.filter((row) => row.lastEnqueuedAt !== null);

  async function resend(row: OutboxRow): Promise<Resend> {
    const queue = queues[row.queue as QueueName];
    const state = await queue.getJobState(row.jobId);
    if (!GONE_STATES.has(state)) return 'alive';
    if (onGiveUp && row.enqueueCount >= maxEnqueues) return 'give-up';
    if (state !== 'unknown') await queue.remove(row.jobId);
    await queue.add(row.jobName, row.payload, { jobId: row.jobId });
    return 'sent';
  }

  try {
    await Promise.all([
      addInBulk(queues, fresh, deadline.race).then((outcome) => {
        sent.push(...outcome.sent);
        failed.push(...outcome.refused);
      }),
      ...resends.map(async (row) => {
        try {
          const outcome = await deadline.race(resend(row));
          if (outcome === 'sent') sent.push(row.id);
          else if (outcome === 'alive') alive.push(row.id);
          else giveUp.push(row);
        } catch {
          failed.push(row.id);
        }
      }),
    ]);
  } finally {
    deadline.clear();
  }

  // 3. Record the outcomes, each in one short statement. A row deleted meanwhile (its job
  // finished) is simply not updated.
  if (sent.length > 0) {
    await db
      .update(outbox)
      .set({ lastEnqueuedAt: sql`now()`, enqueueCount: sql`${outbox.enqueueCount} + 1`, nextAttemptAt: sql`now()` })
      .where(inArray(outbox.id, sent));
  }
  if (alive.length > 0) {
    await db.update(outbox).set({ lastEnqueuedAt: sql`now()`, nextAttemptAt: sql`now()` }).where(inArray(outbox.id, alive));
  }
  if (failed.length > 0) {
    // Redis is unreachable (or slow): leave the rows for the relay and back off a little.
    await db.update(outbox).set({ nextAttemptAt: inMs(RETRY_AFTER_FAILURE_MS) }).where(inArray(outbox.id, failed));
  }
  const giveUpErrors: unknown[] = [];
  for (const row of giveUp) {
    try {
      const done = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(outbox).where(eq(outbox.id, row.id)).for('update');
        if (!current) return false;
        await onGiveUp!(tx, current);
        await tx.delete(outbox).where(eq(outbox.id, row.id));
        return true;
      });
      if (done) result.gaveUp++;
    } catch (error) {
      giveUpErrors.push(error);
      await db.update(outbox).set({ nextAttemptAt: inMs(RETRY_AFTER_FAILURE_MS) }).where(eq(outbox.id, row.id));
    }
  }
  result.sent = sent.length;
  result.alive = alive.length;
  result.failed = failed.length + giveUpErrors.length;
  if (giveUpErrors.length > 0) throw new AggregateError(giveUpErrors, 'outbox: giving up a row failed');
  return result;
}

/**
 * An outbox row inserted as already enqueued (`last_enqueued_at` now, `enqueue_count` 1) by a
 * process that hands it to BullMQ itself right after the commit. To the relay it is like any
 * enqueued row: left alone for `resendAfterMs`, then checked and re-added if BullMQ does not have
 * it, which also covers a process that died between the commit and the hand-over.
 */
export interface HeldOutboxJob extends OutboxJob {
  id: number;
}

/**
 * The fast path after a commit, coalesced: held rows committed within a few milliseconds of each
 * other go to BullMQ together, one `addBulk` per queue, with no statement to claim them and none
 * to mark them. Only rows Redis refused cost a statement: they become never-enqueued rows, due
 * again shortly, for the relay. Never throws.
 */
export function createOutboxNudger(db: Db, queues: Queues, options: { delayMs?: number; deadlineMs?: number } = {}) {
  let pending: HeldOutboxJob[] = [];
  let log: NudgeLog | undefined;
  let timer: NodeJS.Timeout | null = null;
  /** The hand-over in progress; rows nudged meanwhile wait and go together in the next one. */
  let running: Promise<void> | null = null;

  async function handOver(rows: HeldOutboxJob[]) {
    const deadline = redisDeadline(options.deadlineMs ?? 3000);
    const { refused } = await addInBulk(queues, rows, deadline.race).finally(deadline.clear);
    if (refused.length === 0) return;
    log?.warn({ refused: refused.length }, 'Redis refused background work; the relay will enqueue it');
    await db
      .update(outbox)
      .set({ lastEnqueuedAt: null, enqueueCount: sql`greatest(${outbox.enqueueCount} - 1, 0)`, nextAttemptAt: inMs(RETRY_AFTER_FAILURE_MS) })
      .where(inArray(outbox.id, refused));
  }

  function schedule() {
    if (pending.length > 0 && !timer && !running) timer = setTimeout(flush, options.delayMs ?? 5);
  }

  function flush() {
    timer = null;
    const rows = pending;
    pending = [];
    running = handOver(rows)
      .catch((error: unknown) => log?.error({ err: error }, 'handing background work to BullMQ failed; the relay will enqueue it'))
      .finally(() => {
        running = null;
        schedule();
      });
  }

  return {
    /** `requestLog`: where refusals are reported (the last one given is used). */
    nudge(rows: HeldOutboxJob[], requestLog?: NudgeLog) {
      if (requestLog) log = requestLog;
      pending.push(...rows);
      schedule();
    },
    /** Hands over what is pending now and waits for it (graceful shutdown, tests). */
    async drain() {
      while (running || pending.length > 0) {
        if (running) await running;
        else {
          if (timer) clearTimeout(timer);
          flush();
        }
      }
    },
  };
}

/** The logger methods the nudger reports with (pino's). */
interface NudgeLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export type OutboxNudger = ReturnType<typeof createOutboxNudger>;

/** Removes a finished job's row; call it in the transaction that records the job's result. */
export async function completeOutbox(tx: Executor, jobId: string): Promise<void> {
  await tx.delete(outbox).where(eq(outbox.jobId, jobId));
}
