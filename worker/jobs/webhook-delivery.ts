import { DelayedError, type Job } from 'bullmq';
import pLimit, { type LimitFunction } from 'p-limit';
import {
  QUEUES,
  WEBHOOK_DELIVERY_BATCH_JOB,
  WEBHOOK_DELIVERY_JOB,
  webhookAttemptJobId,
  type WebhookDeliveryJobData,
} from '#core/jobs/queues.js';
import { ATTEMPT_BUDGET_MS } from '#core/services/webhooks/delivery-attempts.js';
import { defineJob, jobOptions, type BatchJobData, type WorkerDeps } from './define-job.js';

/** Attempts to each endpoint this worker process is making right now. */
const inFlight = new Map<string, number>();

/**
 * Attempts in progress per sending place: the extra ones are claiming or recording in shared
 * statements while WEBHOOK_CONCURRENCY send.
 */
const IN_PROGRESS_PER_SENDING = 4;
const limits = new WeakMap<WorkerDeps, LimitFunction>();
const limitOf = (deps: WorkerDeps) => {
  let limit = limits.get(deps);
  if (!limit) limits.set(deps, (limit = pLimit(IN_PROGRESS_PER_SENDING * deps.config.webhooks.concurrency)));
  return limit;
};

/**
 * What both delivery jobs share: their queue, their time limit (an attempt may first wait for a
 * place among the process's WEBHOOK_CONCURRENCY) and how long BullMQ keeps them.
 */
const DELIVERY_JOB_OPTIONS = {
  queue: QUEUES.webhookDeliveries,
  timeoutMs: ATTEMPT_BUDGET_MS,
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** First attempts per batch job (see webhookDeliveryBatch). */
const WEBHOOK_BATCH_SIZE = 50;

/** How long a job waits when its endpoint is at its cap: long enough not to spin, short next to any retry. */
const deferMs = () => 1000 + Math.round(Math.random() * 1000);

type Outcome = { result: string; statusCode: number; error: string | null } | { skipped: string };

/**
 * `null` when the endpoint already has WEBHOOK_ENDPOINT_CONCURRENCY attempts here (the caller steps
 * aside); checked and counted together once the attempt holds a sending place.
 */
function attempt(
  deps: WorkerDeps,
  item: WebhookDeliveryJobData,
  signal: AbortSignal,
  capped = true,
): Promise<Outcome | null> {
  return limitOf(deps)(async () => {
    // Its job ran out of time while this attempt waited for a place: it stays for the relay to hand over again.
    if (signal.aborted) return { skipped: 'aborted' };
    const { deliveryId, attempt, endpoint } = item;
    const running = inFlight.get(endpoint) ?? 0;
    if (capped && running >= deps.config.webhooks.endpointConcurrency) return null;
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
  });
}

/**
 * First attempts batched by the relay. One whose endpoint is at its cap leaves as its own delayed
 * job, so a slow receiver never holds up the others.
 */
export const webhookDeliveryBatch = defineJob({
  ...DELIVERY_JOB_OPTIONS,
  name: WEBHOOK_DELIVERY_BATCH_JOB,
  async process(job: Job<BatchJobData<WebhookDeliveryJobData>>, { deps, signal }) {
    const outcomes = await Promise.all(
      job.data.items.map(async (item) => {
        try {
          const outcome = await attempt(deps, item, signal);
          if (outcome) return outcome;
          await deps.queues[QUEUES.webhookDeliveries].add(WEBHOOK_DELIVERY_JOB, item, {
            ...jobOptions(webhookDelivery, webhookAttemptJobId(item.deliveryId, item.attempt)),
            delay: deferMs(),
          });
          return { deferred: true };
        } catch (error) {
          // Its outbox row stays: the relay hands it over again as its own job.
          deps.log.warn(
            { err: error, deliveryId: item.deliveryId, attempt: item.attempt },
            'webhook attempt in a batch failed; the relay will hand it over again',
          );
          return { failed: true };
        }
      }),
    );
    return {
      attempts: outcomes.length,
      failed: outcomes.filter((o) => 'failed' in o).length,
      deferred: outcomes.filter((o) => 'deferred' in o).length,
    };
  },
});

/**
 * One attempt of a webhook delivery (`DeliveryAttempts.run`: claim, send, log, settle, schedule the next). Past its
 * endpoint's cap it steps aside for a second or two, uncounted, so a dead receiver never holds every place.
 */
export const webhookDelivery = defineJob({
  ...DELIVERY_JOB_OPTIONS,
  name: WEBHOOK_DELIVERY_JOB,
  async process(job: Job<WebhookDeliveryJobData>, { deps, signal, token }) {
    // Without a lock token (a test running the processor directly) it cannot step aside: no cap.
    const outcome = await attempt(deps, job.data, signal, Boolean(token));
    if (outcome) return outcome;
    await job.moveToDelayed(Date.now() + deferMs(), token);
    throw new DelayedError();
  },
  // A run that fails (Postgres or Redis out) is retried; one failed for good (or stalled again and again) ends failed.
  attempts: 3,
  backoff: { type: 'exponential', delay: 5000 },
  failed: (job, deps) => deps.webhookAttempts.abandon(job.data.deliveryId, job.data.attempt),
  batch: { type: webhookDeliveryBatch, size: WEBHOOK_BATCH_SIZE },
});
