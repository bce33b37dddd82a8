import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { submissionSteps, type StepState, type SubmissionStep } from '../platform/db/schema/index.js';

/** A step's lease taken by `claim`: the token that proves which run holds it. */
export interface StepLease {
  submissionId: string;
  step: SubmissionStep;
  holder: string;
}

/**
 * Claiming a step for a run: run it (holding `lease`); `busy`, another run holds the step's lease
 * (try again later); `finished`, done or failed already; `missing`, the request was deleted.
 */
export type StepClaim =
  | { kind: 'run'; attempts: number; lease: StepLease }
  | { kind: 'busy' }
  | { kind: 'finished'; state: StepState }
  | { kind: 'missing' };

const fromNow = (ms: number) => sql`now() + ${Math.round(ms)}::int * interval '1 millisecond'`;
const stepKey = (submissionId: string, step: SubmissionStep) =>
  and(eq(submissionSteps.submissionId, submissionId), eq(submissionSteps.step, step));
const heldBy = (lease: StepLease) =>
  and(stepKey(lease.submissionId, lease.step), eq(submissionSteps.leaseHolder, lease.holder));

/** Submissions' background steps (a row per submission and step), by the submission id the worker's jobs carry. */
export function createSubmissionStepRepository(db: Db) {
  /** Where the step stands; null when the request is gone. */
  async function stepState(submissionId: string, step: SubmissionStep, tx: Executor = db): Promise<StepState | null> {
    const [row] = await tx
      .select({ state: submissionSteps.state })
      .from(submissionSteps)
      .where(stepKey(submissionId, step));
    return row?.state ?? null;
  }

  return {
    stepState,

    /** Which of `steps` the request has (a request has `customerCopy` only when a copy is sent). */
    async existingSteps(tx: Executor, submissionId: string, steps: SubmissionStep[]): Promise<SubmissionStep[]> {
      if (steps.length === 0) return [];
      const rows = await tx
        .select({ step: submissionSteps.step })
        .from(submissionSteps)
        .where(and(eq(submissionSteps.submissionId, submissionId), inArray(submissionSteps.step, steps)));
      return steps.filter((step) => rows.some((row) => row.step === step));
    },

    /**
     * Counts a run and leases the step in one statement, unless an unexpired lease exists: of duplicate
     * runs (jobs arrive at least once) exactly one runs, and a dead run's lease expires.
     */
    async claim(submissionId: string, step: SubmissionStep, leaseMs: number): Promise<StepClaim> {
      const holder = randomUUID();
      const [started] = await db
        .update(submissionSteps)
        .set({ attempts: sql`${submissionSteps.attempts} + 1`, leaseHolder: holder, leasedUntil: fromNow(leaseMs) })
        .where(
          and(
            stepKey(submissionId, step),
            eq(submissionSteps.state, 'pending'),
            or(isNull(submissionSteps.leasedUntil), lte(submissionSteps.leasedUntil, sql`now()`)),
          ),
        )
        .returning({ attempts: submissionSteps.attempts });
      if (started) return { kind: 'run', attempts: started.attempts, lease: { submissionId, step, holder } };
      const state = await stepState(submissionId, step);
      if (!state) return { kind: 'missing' };
      return state === 'pending' ? { kind: 'busy' } : { kind: 'finished', state };
    },

    /** Extends a lease still held to `ms` from now; false when it expired and another run took it. */
    async renew(lease: StepLease, ms: number): Promise<boolean> {
      const rows = await db
        .update(submissionSteps)
        .set({ leasedUntil: fromNow(ms) })
        .where(and(heldBy(lease), gt(submissionSteps.leasedUntil, sql`now()`)))
        .returning({ step: submissionSteps.step });
      return rows.length > 0;
    },

    /** Gives a lease back (a no-op when another run holds it by now). */
    async release(lease: StepLease): Promise<void> {
      await db.update(submissionSteps).set({ leaseHolder: null, leasedUntil: null }).where(heldBy(lease));
    },

    /** Finishes a pending step (locking its row); false when it is not pending, or gone. */
    async finishStep(
      tx: Executor,
      submissionId: string,
      step: SubmissionStep,
      state: 'done' | 'failed',
      message: string | null,
    ): Promise<boolean> {
      const finished = await tx
        .update(submissionSteps)
        .set({ state, lastError: message, doneAt: state === 'done' ? new Date() : null })
        .where(and(stepKey(submissionId, step), eq(submissionSteps.state, 'pending')))
        .returning({ step: submissionSteps.step });
      return finished.length > 0;
    },

    /** Keeps the error of a run that will be retried, for the owner to see. */
    async recordStepError(submissionId: string, step: SubmissionStep, message: string) {
      await db
        .update(submissionSteps)
        .set({ lastError: message })
        .where(and(stepKey(submissionId, step), eq(submissionSteps.state, 'pending')));
    },
  };
}
