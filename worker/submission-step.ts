import { UnrecoverableError, type Job } from 'bullmq';
import type { Tx } from '../server/core/platform/db/client.js';
import type { OutboxRow, SubmissionStep } from '../server/core/platform/db/schema/index.js';
import { addToOutbox, completeOutbox, dispatchOutbox } from '../server/core/jobs/outbox.js';
import { NEXT_SUBMISSION_STEP, submissionJob, submissionJobId } from '../server/core/jobs/submission-jobs.js';
import type { WorkerDeps } from './deps.js';

/**
 * How every background step of a submission runs, so that each is idempotent and retried on
 * its own: a run is counted and skipped when the step is already done (jobs arrive at least
 * once); the step's result, its `done` state, the next step's outbox row and the removal of its
 * own outbox row commit in one transaction; a retried error is kept for the owner to see; the
 * last failed attempt marks the step failed and still hands over to the next step, so a PDF
 * that cannot be rendered does not keep the owner's e-mail from going out. A run holds the
 * step's lease while it works, so a job redelivered meanwhile waits instead of running the step
 * twice at the same time.
 */
export interface SubmissionJobData {
  submissionId: string;
}

export interface StepContext {
  deps: WorkerDeps;
  submissionId: string;
  /** 1 for the first run of the step. */
  attempt: number;
}

export interface StepResult {
  /** Writes the step's result, in the transaction that marks the step done. */
  commit?(tx: Tx): Promise<void>;
  /** Kept with the done step, for the owner (e.g. "no e-mail address is set"). */
  note?: string;
  /** Files the step wrote; removed again if the request was deleted meanwhile. */
  writtenKeys?: string[];
}

export interface StepProcessor {
  step: SubmissionStep;
  run(ctx: StepContext): Promise<StepResult>;
}

/** Thrown by a step whose request no longer exists: nothing to do, nothing to retry. */
export class RequestGoneError extends UnrecoverableError {
  constructor() {
    super('the request was deleted');
  }
}

/**
 * Thrown by a job whose step another run is working on right now (it holds the step's lease):
 * a plain, retryable error, so BullMQ tries again after its backoff, by when that run has
 * finished (the retry then finds the step done) or died (its lease expired).
 */
export class StepBusyError extends Error {
  override name = 'StepBusyError';
  constructor(step: SubmissionStep) {
    super(`the ${step} step is running in another job; retrying later`);
  }
}

/** The final error of a step whose job was lost again and again (see `giveUpSubmissionStep`). */
export const GAVE_UP_MESSAGE = 'gave up after repeated interruptions';

const MAX_ERROR_CHARS = 1000;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_CHARS);

/** Whether this failure is the job's last: a permanent error, or no attempts left. */
export function isFinalFailure(job: Pick<Job, 'attemptsMade' | 'opts'>, error: unknown): boolean {
  return error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

async function handOver(deps: WorkerDeps, ids: number[]) {
  // Best effort: the relay enqueues whatever this misses.
  await dispatchOutbox(deps.db, deps.queues, { ids, resendAfterMs: deps.config.worker.resendAfterMs }).catch(() => 0);
}

/**
 * A step's final failure, inside the caller's transaction: the step is marked failed (unless a
 * run finished it meanwhile), the next step is handed its outbox row anyway, and the step's own
 * row goes. Returns the new outbox ids, to dispatch after commit.
 */
async function failStep(deps: WorkerDeps, tx: Tx, submissionId: string, step: SubmissionStep, message: string): Promise<number[]> {
  const row = await deps.submissions.lockStep(tx, submissionId, step);
  let added: number[] = [];
  if (row && row.state === 'pending') {
    await deps.submissions.finishStep(tx, submissionId, step, 'failed', message);
    const next = NEXT_SUBMISSION_STEP[step];
    if (next) added = await addToOutbox(tx, [submissionJob(submissionId, next)]);
  }
  await completeOutbox(tx, submissionJobId(submissionId, step));
  return added;
}

async function recordFailure(deps: WorkerDeps, job: Job<SubmissionJobData>, step: SubmissionStep, error: unknown) {
  const { submissionId } = job.data;
  const message = messageOf(error);
  if (!isFinalFailure(job, error)) {
    await deps.submissions.recordStepError(submissionId, step, message);
    return;
  }
  const ids = await deps.db.transaction((tx) => failStep(deps, tx, submissionId, step, message));
  await handOver(deps, ids);
}

/**
 * The outbox relay's `onGiveUp` for submission jobs: a step whose job was lost too many times
 * (it kills or stalls every worker that takes it) fails for good with GAVE_UP_MESSAGE, and the
 * next step still gets its turn (the relay enqueues its row on its next sweep).
 */
export function giveUpSubmissionStep(deps: WorkerDeps) {
  return async (tx: Tx, row: OutboxRow): Promise<void> => {
    const submissionId = (row.payload as Partial<SubmissionJobData>).submissionId;
    if (typeof submissionId !== 'string') return;
    await failStep(deps, tx, submissionId, row.jobName as SubmissionStep, GAVE_UP_MESSAGE);
  };
}

/** Runs one step for a BullMQ job; see the file comment for the guarantees. */
export async function runSubmissionStep(deps: WorkerDeps, job: Job<SubmissionJobData>, processor: StepProcessor): Promise<Record<string, unknown>> {
  const { submissionId } = job.data;
  const { step } = processor;
  const jobId = submissionJobId(submissionId, step);
  const { submissions, db, storage, log } = deps;

  const leaseMs = deps.config.worker.lockDurationMs;
  const claim = await submissions.claimStep(submissionId, step, leaseMs);
  if (claim.kind === 'missing') {
    await completeOutbox(db, jobId);
    throw new RequestGoneError();
  }
  if (claim.kind === 'finished') {
    await completeOutbox(db, jobId);
    return { step, skipped: claim.state };
  }
  if (claim.kind === 'busy') throw new StepBusyError(step);

  // Renewed like BullMQ's own lock: a step may legitimately outlive one lease (a slow SMTP server).
  const renewal = setInterval(() => void submissions.renewStepLease(submissionId, step, leaseMs).catch(() => {}), Math.max(100, leaseMs / 2));
  renewal.unref();
  try {
    const result = await processor.run({ deps, submissionId, attempt: claim.attempts });
    const next = NEXT_SUBMISSION_STEP[step];
    const outcome = await db.transaction(async (tx) => {
      const row = await submissions.lockStep(tx, submissionId, step);
      if (!row) return { gone: true as const };
      // A parallel run (a job redelivered while this one ran) finished first.
      if (row.state !== 'pending') return { gone: false as const, ids: [] };
      await result.commit?.(tx);
      await submissions.finishStep(tx, submissionId, step, 'done', result.note ?? null);
      const ids = next ? await addToOutbox(tx, [submissionJob(submissionId, next)]) : [];
      await completeOutbox(tx, jobId);
      return { gone: false as const, ids };
    });
    if (outcome.gone) {
      await Promise.all((result.writtenKeys ?? []).map((key) => storage.delete(key).catch(() => {})));
      throw new RequestGoneError();
    }
    await handOver(deps, outcome.ids);
    return { step, done: true, ...(result.note ? { note: result.note } : {}) };
  } catch (error) {
    if (error instanceof RequestGoneError) {
      // Deleted with its project (which leaves outbox rows behind): nothing will ever be due.
      await completeOutbox(db, jobId).catch(() => {});
      throw error;
    }
    log.warn({ submissionId, step, attempt: claim.attempts, err: error }, 'submission step failed');
    await recordFailure(deps, job, step, error).catch((recordError: unknown) =>
      log.error({ submissionId, step, err: recordError }, 'could not record the failure of a submission step'),
    );
    throw error instanceof Error ? error : new Error(messageOf(error));
  } finally {
    clearInterval(renewal);
  }
}
