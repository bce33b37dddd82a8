import { randomUUID } from 'node:crypto';
import type { Executor } from '../platform/db/client.js';
import { WEBHOOK_EVENT_TYPES, serializeDeliveryBody, type WebhookEventType } from '../domain/webhooks/event-types.js';
import { insertEventWithDeliveries, type QueuedDelivery } from './webhook-deliveries.js';

/** The event types the interface defines for webhooks. */
export const EVENT_TYPES = WEBHOOK_EVENT_TYPES;
export type EventType = WebhookEventType;

export interface EmitEventInput {
  workspaceId: string;
  projectId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** Makes the emit idempotent: a second emit with the same key is ignored. */
  dedupeKey?: string;
}

/** An event recorded, and the webhook deliveries it queued. */
export interface EmittedEvent {
  eventId: string;
  createdAt: Date;
  deliveries: QueuedDelivery[];
}

/**
 * The one way the product emits a project event. Call it inside the transaction that makes the
 * change, so the event exists exactly when the change does; its webhook deliveries (one per
 * enabled webhook of the project that subscribes to the type) and their outbox rows are written
 * by the same statement, so none is lost between the commit and the queue. Null when the
 * dedupe key was used already. The callers that can wake the workers' relay do so after commit
 * with `deliveries[].outbox`; otherwise its periodic sweep finds them.
 */
export async function emitEvent(db: Executor, input: EmitEventInput): Promise<EmittedEvent | null> {
  const eventId = randomUUID();
  const createdAt = new Date();
  const body = serializeDeliveryBody({
    id: eventId,
    event: input.type,
    createdAt,
    projectId: input.projectId,
    data: input.data,
  });
  const deliveries = await insertEventWithDeliveries(db, {
    id: eventId,
    workspaceId: input.workspaceId,
    projectId: input.projectId,
    type: input.type,
    data: input.data,
    dedupeKey: input.dedupeKey ?? null,
    createdAt,
    body,
  });
  return deliveries ? { eventId, createdAt, deliveries } : null;
}
