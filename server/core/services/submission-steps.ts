import type { Db, Tx } from '../platform/db/client.js';
import type { SubmissionStep } from '../platform/db/schema/index.js';
import { NEXT_SUBMISSION_STEPS, submissionJob, submissionJobId } from '../jobs/queues.js';
import { createOutboxRepository } from '../repositories/outbox.js';
import { createSubmissionStepRepository } from '../repositories/submission-steps.js';

/** File extension of each screenshot type, for storage keys. */
export const SCREENSHOT_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/**
 * A submission's background steps: each claimed under a lease, and its result, state, next outbox row
 * and own outbox row removal in one transaction. Methods answering outbox ids: rows to hand over after commit.
 */
export function createSubmissionStepService(db: Db) {
  const repo = createSubmissionStepRepository(db);
  const outbox = createOutboxRepository(db);

  /** Finishes the step, adds the next steps' rows (and `commit`'s), removes its own; null when the request is gone. */
  async function finish(
    tx: Tx,
    submissionId: string,
    step: SubmissionStep,
    state: 'done' | 'failed',
    message: string | null,
    commit?: (tx: Tx) => Promise<number[] | void>,
  ): Promise<number[] | null> {
    let ids: number[] = [];
    // A parallel run (a job redelivered while this one ran) may have finished it first.
    const finished = await repo.finishStep(tx, submissionId, step, state, message);
    if (finished) {
      ids = (await commit?.(tx)) ?? [];
      const next = await repo.existingSteps(tx, submissionId, NEXT_SUBMISSION_STEPS[step] ?? []);
      if (next.length > 0)
        ids = [
          ...ids,
          ...(await outbox.add(
            tx,
            next.map((nextStep) => submissionJob(submissionId, nextStep)),
          )),
        ];
    }
    await outbox.complete(tx, submissionJobId(submissionId, step));
    return finished || (await repo.stepState(submissionId, step, tx)) ? ids : null;
  }

  return {
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

    /** Removes the outbox row of a step with nothing left to do (finished already, or its request deleted). */
    forget: (submissionId: string, step: SubmissionStep) => outbox.complete(db, submissionJobId(submissionId, step)),
  };
}
