import { QUEUES } from './queues.js';
import type { OutboxJob } from './outbox.js';

/**
 * Webhook deliveries as jobs: one job per attempt of a delivery, so each retry is a BullMQ job
 * delayed until it is due, and a delivery's outbox row always names the attempt it waits for.
 */
export const WEBHOOK_DELIVERY_JOB = 'deliver';

export interface WebhookDeliveryJobData {
  deliveryId: string;
  attempt: number;
}

/** BullMQ job ids must not contain ':'; unique per delivery and attempt. */
export const webhookAttemptJobId = (deliveryId: string, attempt: number) => `whd_${deliveryId}_${attempt}`;

export function webhookAttemptJob(deliveryId: string, attempt: number): OutboxJob {
  return { queue: QUEUES.webhookDeliveries, name: WEBHOOK_DELIVERY_JOB, jobId: webhookAttemptJobId(deliveryId, attempt), data: { deliveryId, attempt } };
}
