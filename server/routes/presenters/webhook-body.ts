import type { LoggedAttempt, Webhook } from '../../core/platform/db/schema/index.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A webhook as reads answer it (docs/api.md, Webhooks): never its secret. */
export function toWebhookBody(row: Webhook) {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    secretSet: true,
    disabledReason: row.disabledReason ?? null,
    disabledAt: iso(row.disabledAt),
    failingSince: iso(row.failingSince),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One attempt as a delivery record of the log. */
export function toDeliveryRecord(row: LoggedAttempt) {
  return {
    deliveryId: row.deliveryId,
    webhookId: row.webhookId,
    event: row.event,
    statusCode: row.statusCode,
    delivered: row.delivered,
    timestamp: row.createdAt.toISOString(),
    attempt: row.attempt,
    durationMs: row.durationMs,
    error: row.error ?? null,
    responseBody: row.responseBody,
    deliveryState: row.delivery.deliveryState,
    deliveryAttempts: row.delivery.deliveryAttempts,
    nextAttemptAt: row.delivery.nextAttemptAt?.toISOString() ?? null,
    requestExcerpt: row.delivery.requestExcerpt,
  };
}
