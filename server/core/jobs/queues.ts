import type { SubmissionStep } from '../platform/db/schema/index.js';

/**
 * Every BullMQ queue, one per job family that must not starve another. Job ids are deterministic so a
 * second hand-over of the same work is absorbed; BullMQ ids must not contain ':'.
 */
export const QUEUES = {
  health: 'health',
  submissionSteps: 'submission-steps',
  /** Housekeeping on a schedule (the storage sweeper). */
  maintenance: 'maintenance',
  webhookDeliveries: 'webhook-deliveries',
  /** Library imports: long downloads and CPU-heavy checks, never in the way of the others. */
  imports: 'imports',
  /** Delivery files: minutes of CPU per model, never in the way of imports or requests. */
  deliveries: 'deliveries',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * Store-first background work: services write outbox rows in the caller's transaction so no job is
 * lost between commit and queue; only the worker's relay hands them to BullMQ (outbox.ts).
 */
export interface OutboxJob {
  queue: QueueName;
  name: string;
  /** Deterministic, so a second enqueue of the same work is absorbed by BullMQ. */
  jobId: string;
  data: Record<string, unknown>;
}

/** An outbox row just committed: its id and its job. */
export interface CommittedOutboxJob extends OutboxJob {
  id: number;
}

/**
 * A submission's steps: submit commits the first ones; a step that finishes commits the next ones the
 * request has with its result (screenshots → pdf → email and customerCopy). `events` runs on its own.
 */
export const FIRST_SUBMISSION_STEPS: SubmissionStep[] = ['screenshots', 'events'];
export const NEXT_SUBMISSION_STEPS: Partial<Record<SubmissionStep, SubmissionStep[]>> = {
  screenshots: ['pdf'],
  pdf: ['email', 'customerCopy'],
};
export const submissionJobId = (submissionId: string, step: SubmissionStep) => `sub_${submissionId}_${step}`;
export const submissionJob = (submissionId: string, step: SubmissionStep): OutboxJob => ({
  queue: QUEUES.submissionSteps,
  name: step,
  jobId: submissionJobId(submissionId, step),
  data: { submissionId },
});

/** A library import: one job per import, run once. */
export const IMPORT_JOB = 'import';
export interface ImportJobData {
  importId: string;
}
export const importJobId = (importId: string) => `imp_${importId}`;
export const importOutboxJob = (importId: string): OutboxJob => ({
  queue: QUEUES.imports,
  name: IMPORT_JOB,
  jobId: importJobId(importId),
  data: { importId } satisfies ImportJobData,
});

/** An asset's delivery file: one job per asset at a time (finished jobs leave BullMQ, so it can be asked again). */
export const DELIVERY_JOB = 'delivery';
export interface DeliveryJobData {
  assetId: string;
}
export const deliveryJobId = (assetId: string) => `dlv_${assetId}`;
export const deliveryOutboxJob = (assetId: string): OutboxJob => ({
  queue: QUEUES.deliveries,
  name: DELIVERY_JOB,
  jobId: deliveryJobId(assetId),
  data: { assetId } satisfies DeliveryJobData,
});

/** A webhook delivery: one job per attempt; a retry's outbox row is due at its time. */
export const WEBHOOK_DELIVERY_JOB = 'deliver';
/** First attempts handed over in a burst share a job of this name (data `{ items }`). */
export const WEBHOOK_DELIVERY_BATCH_JOB = 'deliver-batch';
export interface WebhookDeliveryJobData {
  deliveryId: string;
  attempt: number;
  /** `<projectId>/<webhookId>`: lets a worker cap its attempts to one endpoint before touching Postgres. */
  endpoint: string;
}
export const webhookAttemptJobId = (deliveryId: string, attempt: number) => `whd_${deliveryId}_${attempt}`;
export const webhookAttemptJob = (
  delivery: { id: string; projectId: string; webhookId: string },
  attempt: number,
): OutboxJob => ({
  queue: QUEUES.webhookDeliveries,
  name: WEBHOOK_DELIVERY_JOB,
  jobId: webhookAttemptJobId(delivery.id, attempt),
  data: {
    deliveryId: delivery.id,
    attempt,
    endpoint: `${delivery.projectId}/${delivery.webhookId}`,
  } satisfies WebhookDeliveryJobData,
});
