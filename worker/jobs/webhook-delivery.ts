import { DelayedError, type Job } from 'bullmq';
import { QUEUES } from '../../server/core/jobs/queues.js';
import { WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJobData } from '../../server/core/jobs/webhook-jobs.js';
import { ATTEMPT_BUDGET_MS } from '../../server/core/services/webhooks/delivery-attempts.js';
import { defineJob } from './define-job.js';

/** Attempts to each endpoint this worker process is making right now. */
const inFlight = new Map<string, number>();

/** How long a job waits when its endpoint is at its cap: long enough not to spin, short next to any retry. */
const deferMs = () => 1000 + Math.round(Math.random() * 1000);

/**
 * One attempt of a webhook delivery (`DeliveryAttempts.run`: claim, send, log, settle, schedule
 * the next attempt). Each retry is its own job, delayed in BullMQ, and never holds a slot. A
 * worker makes at most WEBHOOK_ENDPOINT_CONCURRENCY attempts to one endpoint at once: past that
 * a job steps aside for a second or two (its attempt is not counted), so a slow or dead
 * receiver holds only that many places and the other webhooks' deliveries keep flowing.
 */
export const webhookDelivery = defineJob({
  queue: QUEUES.webhookDeliveries,
  name: WEBHOOK_DELIVERY_JOB,
  // An attempt may first wait for a place among the process's WEBHOOK_CONCURRENCY sending at once.
  timeoutMs: ATTEMPT_BUDGET_MS,
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
  async process(job: Job<WebhookDeliveryJobData>, { deps, token }) {
    const { deliveryId, attempt, endpoint } = job.data;
    const running = inFlight.get(endpoint) ?? 0;
    // Without a lock token (a test running the processor directly) it cannot step aside: no cap.
    if (token && running >= deps.config.webhooks.endpointConcurrency) {
      await job.moveToDelayed(Date.now() + deferMs(), token);
      throw new DelayedError();
    }
    inFlight.set(endpoint, running + 1);
    try {
      const run = await deps.webhookAttempts.run(deliveryId, attempt);
      return run.kind === 'attempted'
        ? { result: run.result, statusCode: run.outcome.statusCode, error: run.outcome.error }
        : { skipped: run.reason };
    } finally {
      const left = (inFlight.get(endpoint) ?? 1) - 1;
      if (left > 0) inFlight.set(endpoint, left);
      else inFlight.delete(endpoint);
    }
  },
  /** Its job was lost again and again (it kills every worker that takes it): the delivery ends failed. */
  async giveUp(tx, row, deps) {
    const deliveryId = (row.payload as Partial<WebhookDeliveryJobData>).deliveryId;
    if (typeof deliveryId === 'string') await deps.webhookAttempts.abandon(tx, deliveryId);
  },
});
