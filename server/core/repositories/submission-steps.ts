import { and, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { submissionSteps, type StepState, type SubmissionStep } from '../platform/db/schema/index.js';

/** Starting a run of a step: run it; `finished`, done or failed already; `missing`, the request was deleted. */
export type StepStart =
  { kind: 'run'; attempts: number } | { kind: 'finished'; state: StepState } | { kind: 'missing' };

/** Submissions' background steps (a row per submission and step), by the submission id the worker's jobs carry. */
export function createSubmissionStepRepository(db: Db) {
  /** Where the step stands; null when the request is gone. */
  async function stepState(submissionId: string, step: SubmissionStep): Promise<StepState | null> {
    const [row] = await db
      .select({ state: submissionSteps.state })
      .from(submissionSteps)
      .where(and(eq(submissionSteps.submissionId, submissionId), eq(submissionSteps.step, step)));
    return row?.state ?? null;
  }

  return {
    stepState,

    /**
     * Counts a run of the step and says whether it should run: a step already done or failed
     * is skipped (jobs are delivered at least once), a deleted request has nothing to do. The
     * caller holds the step's lease (leases.ts), so no other run counts at the same time.
     */
    async startStep(submissionId: string, step: SubmissionStep): Promise<StepStart> {
      const [started] = await db
        .update(submissionSteps)
        .set({ attempts: sql`${submissionSteps.attempts} + 1` })
        .where(
          and(
            eq(submissionSteps.submissionId, submissionId),
            eq(submissionSteps.step, step),
            eq(submissionSteps.state, 'pending'),
          ),
        )
        .returning({ attempts: submissionSteps.attempts });
      if (started) return { kind: 'run', attempts: started.attempts };
      const state = await stepState(submissionId, step);
      return state ? { kind: 'finished', state } : { kind: 'missing' };
    },

    /** Locks the step row for the transaction that records its result; null when the request is gone. */
    async lockStep(tx: Executor, submissionId: string, step: SubmissionStep) {
      const [row] = await tx
        .select()
        .from(submissionSteps)
        .where(and(eq(submissionSteps.submissionId, submissionId), eq(submissionSteps.step, step)))
        .for('update');
      return row ?? null;
    },

    async finishStep(
      tx: Executor,
      submissionId: string,
      step: SubmissionStep,
      state: 'done' | 'failed',
      message: string | null,
    ) {
      await tx
        .update(submissionSteps)
        .set({ state, lastError: message, doneAt: state === 'done' ? new Date() : null })
        .where(and(eq(submissionSteps.submissionId, submissionId), eq(submissionSteps.step, step)));
    },

    /** Keeps the error of a run that will be retried, for the owner to see. */
    async recordStepError(submissionId: string, step: SubmissionStep, message: string) {
      await db
        .update(submissionSteps)
        .set({ lastError: message })
        .where(
          and(
            eq(submissionSteps.submissionId, submissionId),
            eq(submissionSteps.step, step),
            eq(submissionSteps.state, 'pending'),
          ),
        );
    },
  };
}
