import {
  SUBMISSION_STEPS,
  type StepState,
  type SubmissionStep,
  type SubmissionStepRow,
} from '../../core/platform/db/schema/index.js';

/** Where a step stands, as owners read it. */
export interface StepStateBody {
  state: StepState;
  attempts: number;
  error?: string;
  note?: string;
  doneAt: string | null;
}

/** `customerCopy` only on a request that has it (a copy is sent to the visitor). */
export type StepsBody = Record<Exclude<SubmissionStep, 'customerCopy'>, StepStateBody> & {
  customerCopy?: StepStateBody;
};

function toStepBody(row: SubmissionStepRow | undefined): StepStateBody {
  if (!row) return { state: 'pending', attempts: 0, doneAt: null };
  const body: StepStateBody = { state: row.state, attempts: row.attempts, doneAt: row.doneAt?.toISOString() ?? null };
  // last_error is the failure (failed), the last retried error (pending) or a note (done).
  if (row.lastError) {
    if (row.state === 'done') body.note = row.lastError;
    else body.error = row.lastError;
  }
  return body;
}

export function toStepsBody(rows: SubmissionStepRow[]): StepsBody {
  const present = SUBMISSION_STEPS.filter((step) => step !== 'customerCopy' || rows.some((r) => r.step === step));
  return Object.fromEntries(present.map((step) => [step, toStepBody(rows.find((r) => r.step === step))])) as StepsBody;
}
