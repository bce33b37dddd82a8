import type { OutboxRow } from '../server/core/platform/db/schema/index.js';
import { withTimeout } from '../server/core/platform/deadline.js';
import type { QueueName } from '../server/core/jobs/queues.js';
import { jobOptions, type BatchJobData, type JobType } from './jobs/define-job.js';
import type { WorkerDeps } from './deps.js';

export interface DispatchOptions {
  /** Only these rows (the fast path after a step committed the next one). */
  ids?: number[];
  /** How long after a hand-over (and its job's own delay) a row is checked again (default OUTBOX_RESEND_AFTER_MS). */
  resendAfterMs?: number;
  /** Rows per call (default 100). */
  batchSize?: number;
  /** How long each call to Redis may take; rows not handed over by then wait for the next sweep (default 3000 ms). */
  deadlineMs?: number;
  /** Hand-overs to BullMQ after which a lost job is given to its type's `giveUp` (default 5). */
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
  /** Given to their type's `giveUp` and removed. */
  gaveUp: number;
}

/** A claimed row is invisible to other dispatchers this long: far longer than `deadlineMs` plus the marking. */
const CLAIM_MS = 30_000;
/** How long a row waits after Redis refused it. */
const RETRY_AFTER_FAILURE_MS = 2000;

/** Job states in which BullMQ will never run the job again: a plain `add` with its id would be ignored. */
const GONE_STATES = new Set(['completed', 'failed', 'unknown']);

type Claimed = OutboxRow & { type: JobType };

/**
 * Hands due outbox rows to BullMQ with their job type's options. Safe to run concurrently; no
 * Postgres transaction is held while Redis is called: claim (SKIP LOCKED, pushed CLAIM_MS ahead),
 * enqueue (new rows in one `addBulk` per queue, each call bounded by `deadlineMs`), record.
 * A handed-over row is due again after its delay and `resendAfterMs` (plus backoff on failure).
 * A due row already enqueued is left while BullMQ holds its job live, else re-added (processors
 * are idempotent against Postgres); after `maxEnqueues` a job type with `giveUp` is given up.
 */
export async function dispatchOutbox(deps: WorkerDeps, options: DispatchOptions = {}): Promise<DispatchResult> {
  const {
    ids,
    resendAfterMs = deps.config.worker.resendAfterMs,
    batchSize = 100,
    deadlineMs = 3000,
    maxEnqueues = 5,
  } = options;
  const { queues, jobs, outbox } = deps;
  const result: DispatchResult = { claimed: 0, sent: 0, alive: 0, failed: 0, gaveUp: 0 };
  if (ids && ids.length === 0) return result;

  // 1. Claim. Rows of a job type this process does not know (another version's) are left alone.
  const rows = await outbox.claimDue({ keys: jobs.keys(), ids, limit: batchSize, claimMs: CLAIM_MS });
  result.claimed = rows.length;
  if (rows.length === 0) return result;
  const claimed: Claimed[] = rows.map((row) => ({ ...row, type: jobs.get(row.queue, row.jobName)! }));
  const redis = <T>(work: () => Promise<T>) => withTimeout(work, deadlineMs, `Redis took longer than ${deadlineMs} ms`);

  // 2. Redis.
  const sent: Claimed[] = [];
  const alive: number[] = [];
  const carried: number[] = [];
  const failed: number[] = [];
  const giveUp: Claimed[] = [];
  const firstTime = new Map<QueueName, Claimed[]>();
  for (const row of claimed.filter((r) => r.lastEnqueuedAt === null)) {
    const queued = firstTime.get(row.queue as QueueName);
    if (queued) queued.push(row);
    else firstTime.set(row.queue as QueueName, [row]);
  }
  const addInBulk = [...firstTime].map(async ([queue, batch]) => {
    const bulk = batch
      .filter((row) => !row.type.batch)
      .map((row) => ({ name: row.jobName, data: row.payload as object, opts: jobOptions(row.type, row.jobId) }));
    // Rows of a type with `batch` share a carrier job, its id made of theirs (a second hand-over is absorbed).
    for (const type of new Set(batch.map((row) => row.type))) {
      if (!type.batch) continue;
      const { type: carrier, size } = type.batch;
      const group = batch.filter((row) => row.type === type);
      for (let i = 0; i < group.length; i += size) {
        const chunk = group.slice(i, i + size);
        const carrierJobId = `${carrier.name}_${chunk[0].id}_${chunk[chunk.length - 1].id}_${chunk.length}`;
        for (const row of chunk) row.carrierJobId = carrierJobId;
        const data: BatchJobData = { items: chunk.map((row) => row.payload) };
        bulk.push({ name: carrier.name, data, opts: jobOptions(carrier, carrierJobId) });
      }
    }
    await redis(() => queues[queue].addBulk(bulk)).then(
      () => sent.push(...batch),
      () => failed.push(...batch.map((row) => row.id)),
    );
  });
  const resend = claimed
    .filter((row) => row.lastEnqueuedAt !== null)
    .map(async (row) => {
      const queue = queues[row.queue as QueueName];
      try {
        // A row that went with others: while their carrier job is in BullMQ, it may still do the work.
        const carrier = row.carrierJobId;
        if (carrier && !GONE_STATES.has(await redis(() => queue.getJobState(carrier)))) return carried.push(row.id);
        // Its own job from now on (a carrier hands over what it cannot run at once as the row's own job).
        row.carrierJobId = null;
        const state = await redis(() => queue.getJobState(row.jobId));
        if (!GONE_STATES.has(state)) return alive.push(row.id);
        if (row.type.giveUp && row.enqueueCount >= maxEnqueues) return giveUp.push(row);
        await redis(async () => {
          if (state !== 'unknown') await queue.remove(row.jobId);
          await queue.add(row.jobName, row.payload, jobOptions(row.type, row.jobId));
        });
        sent.push(row);
      } catch {
        failed.push(row.id);
      }
    });
  await Promise.all([...addInBulk, ...resend]);

  // 3. Record the outcomes. A row deleted meanwhile (its job finished) is simply not updated.
  await outbox.markSent(
    sent.map((row) => ({
      id: row.id,
      checkAfterMs: (row.type.delayMs ?? 0) + resendAfterMs,
      carrierJobId: row.carrierJobId,
    })),
    CLAIM_MS,
  );
  await outbox.checkLater(alive, resendAfterMs, true);
  await outbox.checkLater(carried, resendAfterMs);
  // Redis is unreachable (or slow): leave the rows for the relay and back off a little.
  await outbox.checkLater(failed, RETRY_AFTER_FAILURE_MS);
  const giveUpErrors: unknown[] = [];
  for (const row of giveUp) {
    try {
      if (await outbox.giveUp(row.id, (tx, current) => row.type.giveUp!(tx, current, deps))) result.gaveUp++;
    } catch (error) {
      giveUpErrors.push(error);
      await outbox.checkLater([row.id], RETRY_AFTER_FAILURE_MS);
    }
  }
  result.sent = sent.length;
  result.alive = alive.length + carried.length;
  result.failed = failed.length + giveUpErrors.length;
  if (giveUpErrors.length > 0) throw new AggregateError(giveUpErrors, 'outbox: giving up a row failed');
  return result;
}

/**
 * A run of this job failed and BullMQ retries it after `delayMs`: the relay need not look at
 * its row before that retry had its chance (`resendAfterMs` later).
 */
export async function postponeOutboxCheck(deps: WorkerDeps, jobId: string, delayMs: number): Promise<void> {
  await deps.outbox.postpone(jobId, delayMs + deps.config.worker.resendAfterMs);
}
