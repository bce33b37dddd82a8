import { randomUUID } from 'node:crypto';
import { AppError, conflict, notFound } from '../../domain/errors.js';
import {
  MAX_WEBHOOKS_PER_PROJECT,
  TEST_EVENT,
  isWebhookEventType,
  serializeDeliveryBody,
  type WebhookEventType,
} from '../../domain/webhooks/event-types.js';
import { generateWebhookSecret, secretProblem } from '../../domain/webhooks/signature.js';
import type { LoggedAttempt, Webhook } from '../../platform/db/schema/index.js';
import type { OutboxNudger } from '../../jobs/outbox.js';
import { createOutboxRepository } from '../../repositories/outbox.js';
import { webhookAttemptJob } from '../../jobs/queues.js';
import { emitEvent } from '../events.js';
import { createProjectRepository } from '../../repositories/projects.js';
import { createWebhookDeliveryRepository } from '../../repositories/webhook-deliveries.js';
import { createWebhookRepository } from '../../repositories/webhooks.js';
import type { LookupAll } from '../../platform/ssrf-guard.js';
import type { ServiceDeps } from '../service-deps.js';
import { TEST_TIMEOUT_MS, type DeliveryAttempts } from './delivery-attempts.js';
import { checkTargetUrl } from './target-url.js';

export interface WebhookServiceDeps extends ServiceDeps {
  outbox: OutboxNudger;
  attempts: DeliveryAttempts;
  /** WEBHOOK_ALLOW_INSECURE. */
  allowInsecure: boolean;
  /** The resolver of registration checks (tests). */
  lookup?: LookupAll;
}

/** A PUT body as the route parsed it. */
export interface WebhookPut {
  url: string;
  events: string[];
  secret?: string;
  name?: string;
  enabled?: boolean;
}

/** Trigger data larger than this (as JSON) is refused with 413: receivers should not choke on our events. */
const MAX_TRIGGER_DATA_BYTES = 256 * 1024;

const invalidEvent = (bad: string[]) =>
  new AppError(400, 'invalid_event', `Unsupported event type${bad.length > 1 ? 's' : ''}: ${bad.join(', ')}.`, {
    details: bad.map((type) => ({ field: 'events', message: `${type} is not a supported event type` })),
  });

/**
 * Project webhooks for owners (docs/api.md, Webhooks). Deliveries are made by the worker (`DeliveryAttempts`),
 * except the synchronous test's single attempt, made here.
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const hooks = createWebhookRepository(deps.db);
  const deliveries = createWebhookDeliveryRepository(deps.db);
  const projects = createProjectRepository(deps.db);
  const outbox = createOutboxRepository(deps.db);

  async function requireProject(workspaceId: string, projectId: string) {
    if (!(await projects.exists(workspaceId, projectId))) throw notFound('Project');
  }

  async function requireWebhook(workspaceId: string, projectId: string, id: string): Promise<Webhook> {
    const row = await hooks.get(workspaceId, projectId, id);
    if (row) return row;
    await requireProject(workspaceId, projectId);
    throw notFound('Webhook');
  }

  function checkEvents(events: string[]): WebhookEventType[] {
    const bad = events.filter((type) => !isWebhookEventType(type));
    if (bad.length > 0) throw invalidEvent([...new Set(bad)]);
    return [...new Set(events)] as WebhookEventType[];
  }

  return {
    async list(workspaceId: string, projectId: string): Promise<Webhook[]> {
      await requireProject(workspaceId, projectId);
      return hooks.list(workspaceId, projectId);
    },

    /**
     * Creates (`created`) or replaces a webhook. The secret is write-only: omitted on create, one
     * is generated and answered once (`secret`); omitted on update, the old one stays.
     */
    async put(
      workspaceId: string,
      projectId: string,
      id: string,
      input: WebhookPut,
    ): Promise<{ webhook: Webhook; created: boolean; secret?: string }> {
      const events = checkEvents(input.events);
      if (input.secret !== undefined) {
        const problem = secretProblem(input.secret);
        if (problem)
          throw new AppError(400, 'invalid_request', `secret ${problem}.`, {
            details: [{ field: 'body.secret', message: problem }],
          });
      }
      const url = await checkTargetUrl(input.url, { allowInsecure: deps.allowInsecure, lookup: deps.lookup });
      const fields = { name: input.name ?? id, url, events, enabled: input.enabled ?? true };
      return deps.inTransaction(async ({ tx }) => {
        if (!(await hooks.lockProject(tx, workspaceId, projectId))) throw notFound('Project');
        const updated = await hooks.update(tx, workspaceId, projectId, id, { ...fields, secret: input.secret });
        if (updated) return { webhook: updated, created: false };
        if ((await hooks.count(tx, projectId)) >= MAX_WEBHOOKS_PER_PROJECT) {
          throw conflict(`A project has at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks; delete one first.`);
        }
        const secret = input.secret ?? generateWebhookSecret();
        const webhook = await hooks.insert(tx, workspaceId, projectId, id, { ...fields, secret });
        return { webhook, created: true, ...(input.secret === undefined ? { secret } : {}) };
      });
    },

    /** Deletes the webhook with its deliveries and log; queued attempts find nothing and end. */
    async delete(workspaceId: string, projectId: string, id: string): Promise<void> {
      if (!(await hooks.delete(workspaceId, projectId, id))) {
        await requireProject(workspaceId, projectId);
        throw notFound('Webhook');
      }
    },

    /** One synchronous attempt of webhook.test, logged, never retried (disabled webhooks may be tested too). */
    async test(workspaceId: string, projectId: string, id: string) {
      await requireWebhook(workspaceId, projectId, id);
      const createdAt = new Date();
      const body = serializeDeliveryBody({
        id: randomUUID(),
        event: TEST_EVENT,
        createdAt,
        projectId,
        data: { webhookId: id, message: 'This is a test delivery.' },
      });
      const delivery = await deps.db.transaction((tx) =>
        deliveries.createTest(tx, { workspaceId, projectId, webhookId: id, body, event: TEST_EVENT }),
      );
      const run = await deps.attempts.run(delivery.id, 1, { timeoutMs: TEST_TIMEOUT_MS });
      // Deleted while it ran.
      if (run.kind !== 'attempted') throw notFound('Webhook');
      return { deliveryId: delivery.id, outcome: run.outcome };
    },

    /** The webhook's delivery log: its last 50 attempts, newest first. */
    async deliveries(workspaceId: string, projectId: string, id: string): Promise<LoggedAttempt[]> {
      await requireWebhook(workspaceId, projectId, id);
      return deliveries.listAttempts(workspaceId, projectId, id);
    },

    /** Fires an event by hand to every enabled webhook of the project that subscribes to it. */
    async trigger(workspaceId: string, projectId: string, event: string, data: Record<string, unknown>) {
      if (!isWebhookEventType(event)) throw invalidEvent([event]);
      if (Buffer.byteLength(JSON.stringify(data)) > MAX_TRIGGER_DATA_BYTES) {
        throw new AppError(
          413,
          'payload_too_large',
          `data must be at most ${MAX_TRIGGER_DATA_BYTES / 1024} KB as JSON.`,
        );
      }
      const emitted = await deps.inTransaction(async ({ tx, afterCommit }) => {
        if (!(await projects.exists(workspaceId, projectId, tx))) throw notFound('Project');
        const result = await emitEvent(deps, tx, { workspaceId, projectId, type: event, data });
        afterCommit(() =>
          deps.outbox.nudge(
            result!.deliveries.map((d) => d.outbox),
            deps.log,
          ),
        );
        return result!;
      });
      return {
        eventId: emitted.eventId,
        deliveries: emitted.deliveries.map(({ webhookId, deliveryId }) => ({ webhookId, deliveryId })),
      };
    },

    /**
     * Sends a finished delivery once more under the same id (receivers de-duplicate on it); a failed redelivery
     * is not retried. A delivery still being retried, or of a disabled webhook, is a 409.
     */
    async redeliver(workspaceId: string, projectId: string, webhookId: string, deliveryId: string) {
      const webhook = await requireWebhook(workspaceId, projectId, webhookId);
      if (!webhook.enabled) throw conflict('The webhook is disabled; enable it first.');
      return deps.inTransaction(async ({ tx, afterCommit }) => {
        const delivery = await deliveries.lock(tx, workspaceId, projectId, webhookId, deliveryId);
        if (!delivery) throw notFound('Delivery');
        if (delivery.state === 'pending')
          throw conflict('The delivery is still being attempted; its next attempt comes on its own.');
        const reopened = await deliveries.reopen(tx, deliveryId);
        const job = webhookAttemptJob(reopened, reopened.attempts + 1);
        const ids = await outbox.add(tx, [job]);
        afterCommit(() =>
          deps.outbox.nudge(
            ids.map((id) => ({ id, ...job })),
            deps.log,
          ),
        );
        return { deliveryId, webhookId, event: delivery.event };
      });
    },
  };
}
