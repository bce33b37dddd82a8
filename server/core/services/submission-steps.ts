import type { Db, Tx } from '../platform/db/client.js';
import type { StepState, SubmissionStep } from '../platform/db/schema/index.js';
import { NEXT_SUBMISSION_STEP, submissionJob, submissionJobId } from '../jobs/submission-jobs.js';
import { workspaceOwnerEmails } from '../repositories/accounts.js';
import { createLeaseRepository, type Lease } from '../repositories/leases.js';
import { addToOutbox, completeOutbox } from '../repositories/outbox.js';
import { createSubmissionScreenshotRepository } from '../repositories/submission-screenshots.js';
import { createSubmissionStepRepository } from '../repositories/submission-steps.js';
import { createSubmissionRepository } from '../repositories/submissions.js';

/** File extension of each screenshot type, for storage keys. */
export const SCREENSHOT_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/**
 * The outcome of claiming a step for a run: run it (holding `lease`); `busy`, another run holds
 * the step's lease (try again later); `finished`, done or failed already; `missing`, the request
 * was deleted.
 */
export type StepClaim =
  | { kind: 'run'; attempts: number; lease: Lease }
  | { kind: 'busy' }
  | { kind: 'finished'; state: StepState }
  | { kind: 'missing' };

/**
 * The background steps of a submission, as the worker runs them: each step is claimed under a
 * lease keyed by its job id (of runs arriving together exactly one runs; a run that died leaves a
 * lease that expires), and its result, its state, the next step's outbox row and the removal of
 * its own commit in one transaction. Methods that answer outbox ids: rows to hand over after commit.
 */
export function createSubmissionStepService(db: Db) {
  const submissions = createSubmissionRepository(db);
  const repo = createSubmissionStepRepository(db);
  const screenshots = createSubmissionScreenshotRepository(db);
  const leases = createLeaseRepository(db);

  /** Finishes the step, adds the next step's row (and `commit`'s), removes its own; null when the request is gone. */
  async function finish(
    tx: Tx,
    submissionId: string,
    step: SubmissionStep,
    state: 'done' | 'failed',
    message: string | null,
    commit?: (tx: Tx) => Promise<number[] | void>,
  ): Promise<number[] | null> {
    const row = await repo.lockStep(tx, submissionId, step);
    let ids: number[] = [];
    // A parallel run (a job redelivered while this one ran) may have finished it first.
    if (row?.state === 'pending') {
      ids = (await commit?.(tx)) ?? [];
      await repo.finishStep(tx, submissionId, step, state, message);
      const next = NEXT_SUBMISSION_STEP[step];
      if (next) ids = [...ids, ...(await addToOutbox(tx, [submissionJob(submissionId, next)]))];
    }
    await completeOutbox(tx, submissionJobId(submissionId, step));
    return row ? ids : null;
  }

  return {
    /** Takes the step's lease for `leaseMs` and counts the run; only the lease holder counts. */
    async claim(submissionId: string, step: SubmissionStep, leaseMs: number): Promise<StepClaim> {
      const lease = await leases.acquire(submissionJobId(submissionId, step), leaseMs);
      if (!lease) {
        const state = await repo.stepState(submissionId, step);
        if (!state) return { kind: 'missing' };
        return state === 'pending' ? { kind: 'busy' } : { kind: 'finished', state };
      }
      const start = await repo.startStep(submissionId, step).catch(async (error: unknown) => {
        await leases.release(lease);
        throw error;
      });
      if (start.kind === 'run') return { ...start, lease };
      await leases.release(lease);
      return start;
    },
    renew: (lease: Lease, ms: number) => leases.renew(lease, ms),
    release: (lease: Lease) => leases.release(lease),

    /** Records a run's result with `commit` (whose outbox ids join the answer); null when the request is gone. */
    done: (
      submissionId: string,
      step: SubmissionStep,
      note: string | null,
      commit?: (tx: Tx) => Promise<number[] | void>,
    ) => db.transaction((tx) => finish(tx, submissionId, step, 'done', note, commit)),

    /** A step's final failure: failed (unless a run finished it meanwhile), and the next step still gets its turn. */
    fail: (submissionId: string, step: SubmissionStep, message: string, tx?: Tx) =>
      tx
        ? finish(tx, submissionId, step, 'failed', message)
        : db.transaction((t) => finish(t, submissionId, step, 'failed', message)),

    /** Keeps the error of a run that will be retried, for the owner to see. */
    recordStepError: (submissionId: string, step: SubmissionStep, message: string) =>
      repo.recordStepError(submissionId, step, message),

    /** Removes the outbox row of a step with nothing left to do (finished already, or its request deleted). */
    forget: (submissionId: string, step: SubmissionStep) => completeOutbox(db, submissionJobId(submissionId, step)),

    byId: submissions.byId,
    forWork: submissions.forWork,
    setPdfKey: submissions.setPdfKey,
    screenshotsForWork: screenshots.screenshotsForWork,
    setScreenshotStored: screenshots.setScreenshotStored,
    ownerEmails: (workspaceId: string) => workspaceOwnerEmails(db, workspaceId),
  };
}

export type SubmissionStepService = ReturnType<typeof createSubmissionStepService>;
