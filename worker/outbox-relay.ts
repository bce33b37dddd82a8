import type { Redis } from 'ioredis';
import type { JobsOptions } from 'bullmq';
import type { OutboxRow } from '#core/platform/db/schema/index.js';
import { withTimeout } from '#core/platform/deadline.js';
import type { QueueName } from '#core/jobs/queues.js';
import { outboxWakeUpChannel } from '#core/jobs/outbox.js';
import { jobOptions, type BatchJobData, type JobType } from './jobs/define-job.js';
import type { WorkerDeps } from './jobs/define-job.js';

export interface DispatchOptions {
  /** Only these rows (the fast path after a step committed the next one). */
  ids?: number[];
  /** How long after a hand-over a row is checked again (default OUTBOX_RESEND_AFTER_MS). */
  resendAfterMs?: number;
  /** Rows per call (default 100). */
  batchSize?: number;
  /** How long each call to Redis may take; rows not handed over by then wait for the next sweep (default 3000 ms). */
  deadlineMs?: number;
}

/**
 * What one dispatch did with the rows it claimed: `sent` to BullMQ (added or re-added), `alive`
 * (BullMQ still holds the job), `failed` (Redis refused or was slow).
 */
export interface DispatchResult {
  claimed: number;
  sent: number;
  alive: number;
  failed: number;
}

/** A claimed row is invisible to other dispatchers this long: far longer than `deadlineMs` plus the marking. */
const CLAIM_MS = 30_000;
/** How long a row waits after Redis refused it. */
const RETRY_AFTER_FAILURE_MS = 2000;
/** Job states in which BullMQ will never run the job again: a plain `add` with its id would be ignored. */
const GONE_STATES = new Set(['completed', 'failed', 'unknown']);

type Claimed = OutboxRow & { type: JobType };
type BulkJob = { name: string; data: object; opts: JobsOptions };

/** First hand-overs as one bulk list; rows of a type with `batch` share carrier jobs, ids made of theirs. */
function bulkOf(rows: Claimed[]): BulkJob[] {
  const bulk: BulkJob[] = [];
  const carried = new Map<JobType, Claimed[]>();
  for (const row of rows) {
    if (!row.type.batch)
      bulk.push({ name: row.jobName, data: row.payload as object, opts: jobOptions(row.type, row.jobId) });
    else if (carried.has(row.type)) carried.get(row.type)!.push(row);
    else carried.set(row.type, [row]);
  }
  for (const [{ batch }, group] of carried) {
    for (let i = 0; i < group.length; i += batch!.size) {
      const chunk = group.slice(i, i + batch!.size);
      const carrierJobId = `${batch!.type.name}_${chunk[0].id}_${chunk[chunk.length - 1].id}_${chunk.length}`;
      for (const row of chunk) row.carrierJobId = carrierJobId;
      const data: BatchJobData = { items: chunk.map((row) => row.payload) };
      bulk.push({ name: batch!.type.name, data, opts: jobOptions(batch!.type, carrierJobId) });
    }
  }
  return bulk;
}

/**
 * No Postgres transaction is held while Redis is called (claim, enqueue, record), so it is safe to run
 * concurrently. A row BullMQ holds live is left; others are re-added (a job failed for good whose type could
 * not record it runs again).
 */
export async function dispatchOutbox(deps: WorkerDeps, options: DispatchOptions = {}): Promise<DispatchResult> {
  const { ids, resendAfterMs = deps.config.worker.resendAfterMs, batchSize = 100, deadlineMs = 3000 } = options;
  const { queues, jobs, outbox } = deps;
  const result: DispatchResult = { claimed: 0, sent: 0, alive: 0, failed: 0 };
  if (ids && ids.length === 0) return result;

  // Rows of a job type this process does not know (another version's) are left alone.
  const rows = await outbox.claimDue({ keys: jobs.keys(), ids, limit: batchSize, claimMs: CLAIM_MS });
  result.claimed = rows.length;
  if (rows.length === 0) return result;
  const claimed: Claimed[] = rows.map((row) => ({ ...row, type: jobs.get(row.queue, row.jobName)! }));
  const redis = <T>(work: () => Promise<T>) => withTimeout(work, deadlineMs, `Redis took longer than ${deadlineMs} ms`);

  const sent: Claimed[] = [];
  const [alive, carried, failed]: number[][] = [[], [], []];
  const firstTime = new Map<QueueName, Claimed[]>();
  for (const row of claimed.filter((r) => r.lastEnqueuedAt === null)) {
    if (firstTime.has(row.queue as QueueName)) firstTime.get(row.queue as QueueName)!.push(row);
    else firstTime.set(row.queue as QueueName, [row]);
  }
  const addInBulk = [...firstTime].map(([queue, batch]) =>
    redis(() => queues[queue].addBulk(bulkOf(batch))).then(
      () => sent.push(...batch),
      () => failed.push(...batch.map((row) => row.id)),
    ),
  );
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

  // Record the outcomes. A row deleted meanwhile (its job finished) is simply not updated.
  await outbox.markSent(
    sent.map((row) => ({ id: row.id, carrierJobId: row.carrierJobId })),
    resendAfterMs,
  );
  await outbox.checkLater(alive, resendAfterMs, true);
  await outbox.checkLater(carried, resendAfterMs);
  await outbox.checkLater(failed, RETRY_AFTER_FAILURE_MS);
  return Object.assign(result, { sent: sent.length, alive: alive.length + carried.length, failed: failed.length });
}

/** Rows per relay dispatch; a full batch is followed by another at once. */
const RELAY_BATCH = 500;

/**
 * Dispatches at once on a wake-up, and every `intervalMs` for what a lost wake-up, a Redis outage or a
 * dead worker left.
 */
export function startOutboxRelay(deps: WorkerDeps, intervalMs: number) {
  const { log } = deps;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  /** A wake-up arrived during a sweep: rows committed after its claim need another one. */
  let again = false;

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      again = false;
      const result = await dispatchOutbox(deps, { batchSize: RELAY_BATCH });
      total += result.sent;
      // A failure means Redis is in trouble: wait for the next periodic sweep.
      if (stopped || result.failed > 0 || (result.claimed < RELAY_BATCH && !again)) return total;
    }
  }

  /** One sweep now (also what the timer and a wake-up run); resolves when it is done. */
  function sweep(): Promise<number> {
    if (running) again = true;
    running ??= drain()
      .catch((error: unknown) => {
        log.warn({ err: error }, 'outbox relay sweep failed');
        return 0;
      })
      .finally(() => (running = null));
    return running;
  }

  function schedule() {
    if (!stopped) timer = setTimeout(() => void sweep().finally(schedule), intervalMs);
  }

  // Its own connection: a subscribed client can do nothing else. Resubscribes after reconnects.
  const subscriber: Redis = deps.workerRedis.duplicate();
  subscriber.on('error', () => {});
  subscriber.on('message', () => void sweep());
  subscriber
    .subscribe(outboxWakeUpChannel(deps.config.queuePrefix))
    .catch((error: unknown) =>
      log.warn({ err: error }, 'outbox relay could not subscribe to wake-ups; sweeping periodically'),
    );

  void sweep().finally(schedule);
  return {
    sweep,
    /** Stops the timer and the subscription and waits for a sweep in progress. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      subscriber.disconnect();
      await running;
    },
  };
}
