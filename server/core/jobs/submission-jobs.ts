import { QUEUES } from './queues.js';
import type { OutboxJob } from './outbox.js';
import type { SubmissionStep } from '../platform/db/schema/index.js';

/**
 * The background steps of a submission and how they chain. The submit route commits the first
 * steps' outbox rows with the request; a step that finishes commits the next step's row with its
 * own result (screenshots → pdf → email). `events` runs on its own.
 */
export const FIRST_SUBMISSION_STEPS: SubmissionStep[] = ['screenshots', 'events'];
export const NEXT_SUBMISSION_STEP: Partial<Record<SubmissionStep, SubmissionStep>> = {
  screenshots: 'pdf',
  pdf: 'email',
};

/** BullMQ job ids must not contain ':'; this one is unique per submission and step. */
export const submissionJobId = (submissionId: string, step: SubmissionStep) => `sub_${submissionId}_${step}`;

export function submissionJob(submissionId: string, step: SubmissionStep): OutboxJob {
  return {
    queue: QUEUES.submissionSteps,
    name: step,
    jobId: submissionJobId(submissionId, step),
    data: { submissionId },
  };
}
