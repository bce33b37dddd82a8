/**
 * Every BullMQ queue the product uses, named in one place: the server names them in the outbox
 * rows it commits, the worker (worker/jobs/) declares each queue's jobs and runs them. One queue
 * per family of jobs that must not starve each other: each gets its own BullMQ Worker with its
 * own concurrency.
 */
export const QUEUES = {
  health: 'health',
  submissionSteps: 'submission-steps',
  /** Housekeeping on a schedule (the storage sweeper). */
  maintenance: 'maintenance',
  webhookDeliveries: 'webhook-deliveries',
  /** Library imports: long downloads and CPU-heavy checks, never in the way of the others. */
  imports: 'imports',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
