import { UnrecoverableError, type Job } from 'bullmq';
import type { Tx } from '../server/core/db/client.js';
import type { SubmissionStep } from '../server/core/db/schema/index.js';
import { addToOutbox, completeOutbox, dispatchOutbox } from '../server/core/outbox.js';
import { NEXT_SUBMISSION_STEP, submissionJob, submissionJobId } from '../server/core/submission-jobs.js';
import type { WorkerDeps } from './deps.js';

/**
 * How every background step of a submission runs, so that each is idempotent and retried on
 * its own: a run is counted and skipped when the step is already done (jobs arrive at least
 * once); the step's result, its `done` state, the next step's outbox row and the removal of its
 * own outbox row commit in one transaction; a retried error is kept for the owner to see; the
 * last failed attempt marks the step failed and still hands over to the next step, so a PDF
 * that cannot be rendered does not keep the owner's e-mail from going out.
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

async function recordFailure(deps: WorkerDeps, job: Job<SubmissionJobData>, step: SubmissionStep, error: unknown) {
  const { submissionId } = job.data;
  const message = messageOf(error);
  if (!isFinalFailure(job, error)) {
    await deps.submissions.recordStepError(submissionId, step, message);
    return;
  }
  const next = NEXT_SUBMISSION_STEP[step];
  const ids = await deps.db.transaction(async (tx) => {
    const row = await deps.submissions.lockStep(tx, submissionId, step);
    let added: number[] = [];
    if (row && row.state === 'pending') {
      await deps.submissions.finishStep(tx, submissionId, step, 'failed', message);
      if (next) added = await addToOutbox(tx, [submissionJob(submissionId, next)]);
    }
    await completeOutbox(tx, submissionJobId(submissionId, step));
    return added;
  });
  await handOver(deps, ids);
}

/** Runs one step for a BullMQ job; see the file comment for the guarantees. */
export async function runSubmissionStep(deps: WorkerDeps, job: Job<SubmissionJobData>, processor: StepProcessor): Promise<Record<string, unknown>> {
  const { submissionId } = job.data;
  const { step } = processor;
  const jobId = submissionJobId(submissionId, step);
  const { submissions, db, storage, log } = deps;

  const claim = await submissions.claimStep(submissionId, step);
  if (claim.kind === 'missing') {
    await completeOutbox(db, jobId);
    throw new RequestGoneError();
  }
  if (claim.kind === 'finished') {
    await completeOutbox(db, jobId);
    return { step, skipped: claim.state };
  }

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
  }
}
