import pLimit from 'p-limit';
import { TEST_EVENT } from '../../domain/webhooks/event-types.js';
import { retryDelayMs, parseRetryAfter } from '../../domain/webhooks/retry-schedule.js';
import { signedHeaders } from '../../domain/webhooks/signature.js';
import type { Db } from '../../platform/db/client.js';
import type { SendOutcome, WebhookSender } from '../../platform/webhook-sender.js';
import { createOutboxRepository } from '../../repositories/outbox.js';
import { webhookAttemptJob, webhookAttemptJobId } from '../../jobs/queues.js';
import {
  createWebhookDeliveryRepository,
  type ClaimRequest,
  type DeliveredAttempt,
} from '../../repositories/webhook-deliveries.js';
import { createBatcher } from '../../platform/batcher.js';
import { createWebhookRepository } from '../../repositories/webhooks.js';

/** Per-attempt timeout of background deliveries, and of the test endpoint (docs/api.md, Webhooks). */
const DELIVERY_TIMEOUT_MS = 15_000;
/**
 * The time limit of one background attempt, all included. Its claim's lease outlives it by half a minute,
 * so a lease still held means its run is alive.
 */
const attemptBudgetMs = (requestTimeoutMs: number) => 2 * requestTimeoutMs + 30_000;
export const ATTEMPT_BUDGET_MS = attemptBudgetMs(DELIVERY_TIMEOUT_MS);
export const TEST_TIMEOUT_MS = 10_000;
/** A webhook whose attempts have all failed this long is switched off. */
const FAILING_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

export interface DeliveryAttemptDeps {
  db: Db;
  sender: WebhookSender;
  /** WEBHOOK_RETRY_SCHEDULE. */
  retryScheduleMs: readonly number[];
  /** Requests in flight at once (WEBHOOK_CONCURRENCY in the worker); default unbounded. */
  maxSending?: number;
}

/** What became of a run of one attempt. */
export type AttemptRun =
  | { kind: 'attempted'; outcome: SendOutcome; result: 'delivered' | 'retrying' | 'failed'; nextAttemptAt: Date | null }
  | { kind: 'skipped'; reason: 'gone' | 'finished' | 'busy' | 'disabled' };

/**
 * Makes one attempt of a delivery, idempotent against Postgres because jobs arrive at least once; the outbox
 * row is the retry's truth, so a lost BullMQ job is re-enqueued by the relay. Concurrent runs batch round trips.
 */
export function createDeliveryAttempts(deps: DeliveryAttemptDeps) {
  const deliveries = createWebhookDeliveryRepository(deps.db);
  const hooks = createWebhookRepository(deps.db);
  const outbox = createOutboxRepository(deps.db);
  // Attempts running at once share their round trips: a claim or a record waits at most for the
  // statement in progress, then goes with the others that arrived meanwhile.
  const claims = createBatcher((requests: ClaimRequest[]) => deliveries.claimAttempts(requests));
  const delivered = createBatcher(
    async (attempts: DeliveredAttempt[]) => {
      await deliveries.recordDeliveredMany(attempts);
      return attempts.map(() => undefined);
    }, // One record statement at a time per process: two at once would each prune a webhook's log
    // without seeing the other's rows (nor the rows the other locked), leaving it past 50. So
    // its batches may grow larger, lest this one statement cap the throughput.
    { maxBatch: 500, maxInFlight: 1 },
  );

  const sending: <T>(work: () => Promise<T>) => Promise<T> = deps.maxSending
    ? pLimit(deps.maxSending)
    : (work) => work();

  async function run(deliveryId: string, attempt: number, options: { timeoutMs?: number } = {}): Promise<AttemptRun> {
    const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    const jobId = webhookAttemptJobId(deliveryId, attempt);
    // Half a minute past the attempt's whole budget (its job's time limit): a lease outliving it means its run died.
    const claim = await claims.add({ deliveryId, attempt, leaseMs: attemptBudgetMs(timeoutMs) + 30_000 });
    if (!claim) {
      const current = await deliveries.state(deliveryId);
      if (current && current.state === 'pending' && current.attempts === attempt)
        return { kind: 'skipped', reason: 'busy' };
      // Gone (its webhook or project was deleted), finished, or a stale job of an earlier attempt.
      await outbox.complete(deps.db, jobId);
      return { kind: 'skipped', reason: current ? 'finished' : 'gone' };
    }
    const { delivery } = claim;
    if (!claim.enabled && delivery.event !== TEST_EVENT) {
      // Disabled webhooks get nothing; the delivery ends without an attempt.
      await deps.db.transaction(async (tx) => {
        await deliveries.settle(tx, deliveryId, 'failed', null);
        await outbox.complete(tx, jobId);
      });
      return { kind: 'skipped', reason: 'disabled' };
    }

    // A place among the requests in flight (the claim and the bookkeeping need none).
    const outcome = await sending(() => {
      const headers = signedHeaders({
        secret: claim.secret,
        deliveryId,
        event: delivery.event,
        attempt,
        timestamp: Math.floor(Date.now() / 1000),
        body: delivery.body,
      });
      return deps.sender.post(claim.url, headers, delivery.body, timeoutMs);
    });
    const isTest = delivery.event === TEST_EVENT;
    const maxAttempts = delivery.maxAttempts ?? deps.retryScheduleMs.length + 1;

    if (outcome.delivered && !isTest) {
      await delivered.add({
        deliveryId,
        projectId: delivery.projectId,
        webhookId: delivery.webhookId,
        event: delivery.event,
        attempt,
        ...outcome,
        jobId,
      });
      return { kind: 'attempted', outcome, result: 'delivered', nextAttemptAt: null };
    }

    const settled = await deps.db.transaction(async (tx) => {
      const { projectId, webhookId } = delivery;
      await deliveries.recordAttempt(tx, {
        deliveryId,
        projectId,
        webhookId,
        event: delivery.event,
        attempt,
        ...outcome,
      });
      await outbox.complete(tx, jobId);
      if (outcome.delivered) {
        if (!isTest) await hooks.noteOutcome(tx, projectId, webhookId, true);
        await deliveries.settle(tx, deliveryId, 'delivered', null);
        return { result: 'delivered' as const, nextAttemptAt: null };
      }
      // A test says how the endpoint answers; it neither disables the webhook nor counts in its streak.
      let disabled: 'gone' | 'failing' | null = null;
      if (!isTest && outcome.statusCode === 410) disabled = 'gone';
      else if (!isTest) {
        const failingSince = await hooks.noteOutcome(tx, projectId, webhookId, false);
        if (failingSince && Date.now() - failingSince.getTime() >= FAILING_DISABLE_AFTER_MS) disabled = 'failing';
      }
      if (disabled) await hooks.disable(tx, projectId, webhookId, disabled);
      const delayMs =
        !disabled && attempt < maxAttempts
          ? retryDelayMs({
              schedule: deps.retryScheduleMs,
              attempt,
              retryAfterMs: parseRetryAfter(outcome.retryAfter ?? undefined),
              struggling: outcome.error === 'timeout' || outcome.statusCode === 429,
            })
          : null;
      if (delayMs === null) {
        await deliveries.settle(tx, deliveryId, 'failed', null);
        return { result: 'failed' as const, nextAttemptAt: null };
      }
      const nextAttemptAt = new Date(Date.now() + delayMs);
      await deliveries.settle(tx, deliveryId, 'pending', nextAttemptAt);
      // The retry waits in Postgres; the relay hands it to BullMQ when it is due.
      await outbox.add(tx, [{ ...webhookAttemptJob(delivery, attempt + 1), dueInMs: delayMs }]);
      return { result: 'retrying' as const, nextAttemptAt };
    });
    return { kind: 'attempted', outcome, ...settled };
  }

  return {
    run,
    /** A delivery whose attempt's job failed for good ends failed, and that job's outbox row with it. */
    abandon: (deliveryId: string, attempt: number) =>
      deps.db.transaction(async (tx) => {
        await deliveries.abandon(tx, deliveryId);
        await outbox.complete(tx, webhookAttemptJobId(deliveryId, attempt));
      }),
  };
}

export type DeliveryAttempts = ReturnType<typeof createDeliveryAttempts>;
