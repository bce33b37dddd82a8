import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '../platform/db/client.js';
import { serializeDeliveryBody, type WebhookEventType } from '../domain/webhooks/event-types.js';
import { createEventRepository } from '../repositories/events.js';
import { createOutboxRepository } from '../repositories/outbox.js';
import { webhookAttemptJob } from '../jobs/queues.js';
import type { CommittedOutboxJob } from '../jobs/queues.js';

export interface EmitEventInput {
  workspaceId: string;
  projectId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  /** Makes the emit idempotent: a second emit with the same key is ignored. */
  dedupeKey?: string;
}

/** A delivery created and queued: who gets it, under which delivery id, and its outbox row. */
export interface QueuedDelivery {
  webhookId: string;
  deliveryId: string;
  outbox: CommittedOutboxJob;
}

/** An event recorded, and the webhook deliveries it queued. */
export interface EmittedEvent {
  eventId: string;
  createdAt: Date;
  deliveries: QueuedDelivery[];
}

/**
 * The one way to emit a project event. Call it inside the transaction that makes the change, so the
 * event, its deliveries and their outbox rows commit together; null when the dedupe key was used.
 */
export async function emitEvent(deps: { db: Db }, tx: Executor, input: EmitEventInput): Promise<EmittedEvent | null> {
  const eventId = randomUUID();
  const createdAt = new Date();
  const { workspaceId, projectId, type, data } = input;
  const body = serializeDeliveryBody({ id: eventId, event: type, createdAt, projectId, data });
  const created = await createEventRepository(deps.db).insertEventWithDeliveries({
    id: eventId,
    workspaceId,
    projectId,
    type,
    data,
    dedupeKey: input.dedupeKey ?? null,
    createdAt,
    body,
  });
  if (!created) return null;
  const jobs = created.map((d) => webhookAttemptJob({ id: d.deliveryId, projectId, webhookId: d.webhookId }, 1));
  // Fresh delivery ids: every row is new, so the ids come back one per job, in order.
  const ids = await createOutboxRepository(deps.db).add(tx, jobs);
  const deliveries = created.map((d, i) => ({ ...d, outbox: { ...jobs[i], id: ids[i] } }));
  return { eventId, createdAt, deliveries };
}
