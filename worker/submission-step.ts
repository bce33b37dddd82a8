import { UnrecoverableError, type Job } from 'bullmq';
import type { Tx } from '#core/platform/db/client.js';
import type { SubmissionStep } from '#core/platform/db/schema/index.js';
import { QUEUES } from '#core/jobs/queues.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { withTimeout } from '#core/platform/deadline.js';
import { isDependencyDown } from '#core/platform/dependency-errors.js';
import { defineJob, type JobType, type WorkerDeps } from './jobs/define-job.js';
import { dispatchOutbox } from './outbox-relay.js';

/**
 * A step's last error still hands over to the next step, so a PDF that cannot be rendered does not keep
 * the owner's e-mail from going out.
 */
export interface SubmissionJobData {
  submissionId: string;
}

interface StepContext {
  deps: WorkerDeps;
  submissionId: string;
  /** 1 for the first run of the step. */
  attempt: number;
  /** Aborts when the run's time is up: stop what was started. */
  signal: AbortSignal;
}

interface StepResult {
  /** Writes the step's result in the transaction that marks it done; answers outbox rows it added. */
  commit?(tx: Tx): Promise<number[] | void>;
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

/** Another run holds the step's lease: retried after the backoff, by when that run finished or died. */
export class StepBusyError extends Error {
  override name = 'StepBusyError';
  constructor(step: SubmissionStep) {
    super(`the ${step} step is running in another job; retrying later`);
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/** Best effort: the relay enqueues whatever this misses. */
const handOver = (deps: WorkerDeps, ids: number[]) => dispatchOutbox(deps, { ids }).catch(() => 0);

async function recordFailure(deps: WorkerDeps, job: Job<SubmissionJobData>, step: SubmissionStep, error: unknown) {
  const { submissionId } = job.data;
  // A retryable error with attempts left: BullMQ retries it.
  if (!(error instanceof UnrecoverableError) && job.attemptsMade + 1 < (job.opts.attempts ?? 1))
    await deps.steps.recordStepError(submissionId, step, messageOf(error));
  else await handOver(deps, (await deps.submissions.fail(submissionId, step, messageOf(error))) ?? []);
}

async function untilDependencyUp<T>(signal: AbortSignal, attempt: () => Promise<T>): Promise<T> {
  for (let waitMs = 250; ; waitMs = Math.min(waitMs * 2, 5_000)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDependencyDown(error) || signal.aborted) throw error;
      await sleep(waitMs, undefined, { signal });
    }
  }
}

/** Runs one step for a BullMQ job; see the file comment for the guarantees. `signal` aborts the run (its timeout). */
export async function runSubmissionStep(
  deps: WorkerDeps,
  job: Job<SubmissionJobData>,
  processor: StepProcessor,
  signal: AbortSignal = new AbortController().signal,
): Promise<Record<string, unknown>> {
  const { submissionId } = job.data;
  const { step } = processor;
  const { submissions, steps, storage, log } = deps;

  const leaseMs = deps.config.worker.lockDurationMs;
  const claim = await steps.claim(submissionId, step, leaseMs);
  if (claim.kind === 'missing' || claim.kind === 'finished') {
    await submissions.forget(submissionId, step);
    if (claim.kind === 'missing') throw new RequestGoneError();
    return { step, skipped: claim.state };
  }
  if (claim.kind === 'busy') throw new StepBusyError(step);

  // Renewed like BullMQ's own lock: a step may legitimately outlive one lease (a slow SMTP server).
  const renewal = setInterval(() => void steps.renew(claim.lease, leaseMs).catch(() => {}), Math.max(100, leaseMs / 2));
  renewal.unref();
  try {
    // A run past its time fails here, so its failure is recorded like any other.
    const run = (s: AbortSignal) => processor.run({ deps, submissionId, attempt: claim.attempts, signal: s });
    const result = await withTimeout(run, Infinity, undefined, signal);
    // The run's effects (an e-mail accepted) cannot be taken back: wait out a Postgres outage to record them
    // rather than fail and run again.
    const ids = await untilDependencyUp(signal, () =>
      submissions.done(submissionId, step, result.note ?? null, result.commit),
    );
    if (!ids) {
      await Promise.all((result.writtenKeys ?? []).map((key) => storage.delete(key).catch(() => {})));
      throw new RequestGoneError();
    }
    await handOver(deps, ids);
    return { step, done: true, ...(result.note ? { note: result.note } : {}) };
  } catch (error) {
    if (error instanceof RequestGoneError) {
      // Deleted with its project (which leaves outbox rows behind): nothing will ever be due.
      await submissions.forget(submissionId, step).catch(() => {});
      throw error;
    }
    log.warn({ submissionId, step, attempt: claim.attempts, err: error }, 'submission step failed');
    await recordFailure(deps, job, step, error).catch((recordError: unknown) =>
      log.error({ submissionId, step, err: recordError }, 'could not record the failure of a submission step'),
    );
    throw error instanceof Error ? error : new Error(messageOf(error));
  } finally {
    clearInterval(renewal);
    await steps.release(claim.lease).catch(() => {});
  }
}

/**
 * A submission step as a job type of the `submission-steps` queue: 8 runs, exponential backoff from 2 s, failed
 * jobs kept a week (operators); `timeoutMs` bounds one run.
 */
export function defineSubmissionStep(
  processor: StepProcessor,
  options: { timeoutMs: number },
): JobType<SubmissionJobData> & StepProcessor {
  const type = defineJob({
    queue: QUEUES.submissionSteps,
    name: processor.step,
    attempts: 8,
    backoff: { type: 'exponential', delay: 2000, jitter: 0.2 },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
    timeoutMs: options.timeoutMs,
    process: (job: Job<SubmissionJobData>, { deps, signal }) => runSubmissionStep(deps, job, processor, signal),
    // Failed for good without a run recording it (it stalled again and again): the step fails, the next runs.
    failed: async (job, deps) => {
      const ids = await deps.submissions.fail(
        job.data.submissionId,
        processor.step,
        'gave up after repeated interruptions',
      );
      await handOver(deps, ids ?? []);
    },
  });
  return { ...type, ...processor };
}
