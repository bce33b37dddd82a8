import { QUEUES } from './queues.js';
import type { OutboxJob } from './outbox.js';

/**
 * Webhook deliveries as jobs: one job per attempt of a delivery, so each retry is a BullMQ job
 * delayed until it is due, and a delivery's outbox row always names the attempt it waits for.
 */
export const WEBHOOK_DELIVERY_JOB = 'deliver';
/** First attempts handed over in a burst share a job of this name (the worker's relay makes them; data `{ items }`). */
export const WEBHOOK_DELIVERY_BATCH_JOB = 'deliver-batch';

export interface WebhookDeliveryJobData {
  deliveryId: string;
  attempt: number;
  /** `<projectId>/<webhookId>`: lets a worker cap its attempts to one endpoint before touching Postgres. */
  endpoint: string;
}

const webhookEndpointKey = (projectId: string, webhookId: string) => `${projectId}/${webhookId}`;

/** BullMQ job ids must not contain ':'; unique per delivery and attempt. */
export const webhookAttemptJobId = (deliveryId: string, attempt: number) => `whd_${deliveryId}_${attempt}`;

export function webhookAttemptJob(
  delivery: { id: string; projectId: string; webhookId: string },
  attempt: number,
): OutboxJob {
  const data: WebhookDeliveryJobData = {
    deliveryId: delivery.id,
    attempt,
    endpoint: webhookEndpointKey(delivery.projectId, delivery.webhookId),
  };
  return {
    queue: QUEUES.webhookDeliveries,
    name: WEBHOOK_DELIVERY_JOB,
    jobId: webhookAttemptJobId(delivery.id, attempt),
    data: { ...data },
  };
}
