import type { OutboxRow } from '../server/core/platform/db/schema/index.js';
import { untilAborted, withDeadline } from '../server/core/platform/deadline.js';
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
  /** How long the whole batch may spend in Redis; rows not handed over by then wait for the next sweep (default 3000 ms). */
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
const DEFAULT_MAX_ENQUEUES = 5;

/** Job states in which BullMQ will never run the job again: a plain `add` with its id would be ignored. */
const GONE_STATES = new Set(['completed', 'failed', 'unknown']);

type Claimed = OutboxRow & { type: JobType };

/** `Map.groupBy` (Node 21+), for Node 20. */
function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
type Resend = 'sent' | 'alive' | 'give-up';

/** Rows never handed to BullMQ before, as one `addBulk` per queue: the rows it took and the ids it refused. */
async function addInBulk(
  deps: WorkerDeps,
  rows: Claimed[],
  signal: AbortSignal,
): Promise<{ sent: Claimed[]; refused: number[] }> {
  const byQueue = groupBy(rows, (row) => row.queue as QueueName);
  const sent: Claimed[] = [];
  const refused: number[] = [];
  await Promise.all(
    [...byQueue].map(async ([name, batch]) => {
      try {
        const jobs = [];
        for (const [type, group] of groupBy(batch, (row) => row.type)) {
          if (!type.batch) {
            for (const row of group)
              jobs.push({ name: row.jobName, data: row.payload, opts: jobOptions(row.type, row.jobId) });
            continue;
          }
          // Several rows to one carrier job, its id made of theirs (a second hand-over of the same rows is absorbed).
          const { type: carrier, size } = type.batch;
          for (let i = 0; i < group.length; i += size) {
            const chunk = group.slice(i, i + size);
            const carrierJobId = `${carrier.name}_${chunk[0].id}_${chunk[chunk.length - 1].id}_${chunk.length}`;
            for (const row of chunk) row.carrierJobId = carrierJobId;
            const data: BatchJobData = { items: chunk.map((row) => row.payload) };
            jobs.push({ name: carrier.name, data, opts: jobOptions(carrier, carrierJobId) });
          }
        }
        await untilAborted(deps.queues[name].addBulk(jobs), signal);
        sent.push(...batch);
      } catch {
        refused.push(...batch.map((row) => row.id));
      }
    }),
  );
  return { sent, refused };
}

/**
 * Hands due outbox rows to BullMQ, each with the options of its job type (worker/jobs/). Safe to
 * run concurrently and never holds a Postgres transaction while it talks to Redis:
 * 1. one short statement claims due rows (`next_attempt_at` passed; FOR UPDATE SKIP LOCKED
 *    inside, then pushes `next_attempt_at` CLAIM_MS ahead, so no other dispatcher takes them);
 * 2. Redis, outside any transaction, under one deadline for the batch: rows never enqueued
 *    before go to each queue in one `addBulk`, re-sends run in parallel;
 * 3. short statements record the outcome. A row handed over is next due once its job's own
 *    delay and `resendAfterMs` have passed; a failed run pushes that further by its backoff
 *    (the worker's `failed` listener, `postponeOutboxCheck`). So a job waiting in BullMQ for
 *    hours is not looked at meanwhile. A row Redis refused is due again in RETRY_AFTER_FAILURE_MS.
 * Times come from the database clock, the one that stamped the rows.
 *
 * A due row that was enqueued before means its job never finished as far as Postgres knows. If
 * BullMQ still holds that job (waiting, delayed, active), it is looked at again later. If it
 * holds it as completed or failed (a job failed by the stalled checker, or a processor that
 * could not record its final failure) or not at all (Redis restarted empty), it is removed and
 * added again: processors are idempotent against Postgres, so running one again is always safe.
 * After `maxEnqueues` such hand-overs, a job type with a `giveUp` is given up instead.
 */
export async function dispatchOutbox(deps: WorkerDeps, options: DispatchOptions = {}): Promise<DispatchResult> {
  const {
    ids,
    resendAfterMs = deps.config.worker.resendAfterMs,
    batchSize = 100,
    deadlineMs = 3000,
    maxEnqueues = DEFAULT_MAX_ENQUEUES,
  } = options;
  const { queues, jobs, outbox } = deps;
  const result: DispatchResult = { claimed: 0, sent: 0, alive: 0, failed: 0, gaveUp: 0 };
  if (ids && ids.length === 0) return result;

  // 1. Claim. Rows of a job type this process does not know (another version's) are left alone.
  const rows = await outbox.claimDue({ keys: jobs.keys(), ids, limit: batchSize, claimMs: CLAIM_MS });
  result.claimed = rows.length;
  if (rows.length === 0) return result;
  const claimed: Claimed[] = rows.map((row) => ({ ...row, type: jobs.get(row.queue, row.jobName)! }));

  const sent: Claimed[] = [];
  const alive: number[] = [];
  const failed: number[] = [];
  const giveUp: Claimed[] = [];

  async function resend(row: Claimed): Promise<Resend> {
    const queue = queues[row.queue as QueueName];
    // A row that went with others: while their carrier job is in BullMQ, it may still do the work.
    if (row.carrierJobId && !GONE_STATES.has(await queue.getJobState(row.carrierJobId))) return 'alive';
    const state = await queue.getJobState(row.jobId);
    if (!GONE_STATES.has(state)) {
      // The work went on in its own job (a carrier hands over what it cannot run at once).
      row.carrierJobId = null;
      return 'alive';
    }
    row.carrierJobId = null;
    if (row.type.giveUp && row.enqueueCount >= maxEnqueues) return 'give-up';
    if (state !== 'unknown') await queue.remove(row.jobId);
    await queue.add(row.jobName, row.payload, jobOptions(row.type, row.jobId));
    return 'sent';
  }

  // 2. Redis, under one deadline for the whole batch: each call past it counts as refused.
  await withDeadline(
    (signal) =>
      Promise.all([
        addInBulk(
          deps,
          claimed.filter((row) => row.lastEnqueuedAt === null),
          signal,
        ).then((outcome) => {
          sent.push(...outcome.sent);
          failed.push(...outcome.refused);
        }),
        ...claimed
          .filter((row) => row.lastEnqueuedAt !== null)
          .map(async (row) => {
            try {
              const outcome = await untilAborted(resend(row), signal);
              if (outcome === 'sent') sent.push(row);
              else if (outcome === 'alive') alive.push(row.id);
              else giveUp.push(row);
            } catch {
              failed.push(row.id);
            }
          }),
      ]),
    deadlineMs,
    `Redis took longer than ${deadlineMs} ms`,
  );

  // 3. Record the outcomes, in short statements. A row deleted meanwhile (its job finished) is simply not updated.
  await outbox.markSent(
    sent.map((row) => ({
      id: row.id,
      checkAfterMs: (row.type.delayMs ?? 0) + resendAfterMs,
      carrierJobId: row.carrierJobId ?? null,
    })),
    CLAIM_MS,
  );
  const carried = new Set(claimed.filter((row) => row.carrierJobId).map((row) => row.id));
  await outbox.checkLater(
    alive.filter((id) => !carried.has(id)),
    resendAfterMs,
    true,
  );
  await outbox.checkLater(
    alive.filter((id) => carried.has(id)),
    resendAfterMs,
  );
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
  result.alive = alive.length;
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
