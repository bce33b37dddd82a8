import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../wire/webhook-event-types.js';

// The list is part of the API's wire shapes; the rules about it live here.
export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

export const TEST_EVENT = 'webhook.test';

export const isWebhookEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/** At most this many webhooks per project (docs/api.md, Webhooks). */
export const MAX_WEBHOOKS_PER_PROJECT = 20;

/** Webhook ids: 1 to 64 of A-Z a-z 0-9 _ - (docs/api.md, Webhooks). */
export const WEBHOOK_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

/** Delivery records kept and shown per webhook (docs/api.md, Webhooks: the last 50). */
export const DELIVERY_LOG_SIZE = 50;

/** The body of every delivery (docs/webhooks.md), serialized once: the bytes signed and sent. */
export function serializeDeliveryBody(event: {
  id: string;
  event: string;
  createdAt: Date;
  projectId: string;
  data: unknown;
}): string {
  return JSON.stringify({
    id: event.id,
    event: event.event,
    createdAt: event.createdAt.toISOString(),
    projectId: event.projectId,
    data: event.data,
  });
}
