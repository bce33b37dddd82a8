import { Type } from 'typebox';
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types.js';

/**
 * The webhook routes' bodies and answers (docs/api.md, Webhooks), as TypeBox schemas: the routes
 * validate and document with them, the owner console types itself with `Static<typeof X>`.
 */
const Time = Type.String({ format: 'date-time' });
/** Why an attempt failed (the `error` of a delivery record). */
const AttemptError = Type.Union([
  Type.Literal('dns'),
  Type.Literal('connect'),
  Type.Literal('tls'),
  Type.Literal('timeout'),
  Type.Literal('ssrf_blocked'),
  Type.Literal('non_2xx'),
]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const WebhookInput = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      'https:// endpoint on a public address (http:// and private addresses only with WEBHOOK_ALLOW_INSECURE=1).',
  }),
  events: Type.Array(Type.String({ maxLength: 100 }), {
    minItems: 1,
    maxItems: 50,
    description: `Event types to receive: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
  }),
  secret: Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        'Write-only signing secret, 16 to 256 characters (a whsec_ secret: 24 to 64 base64-encoded bytes). ' +
        'Omitted on create: one is generated and answered once. Omitted on update: unchanged.',
    }),
  ),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Display name (default: the id).' })),
  enabled: Type.Optional(
    Type.Boolean({ description: 'Default true. Setting true again re-enables a webhook the platform disabled.' }),
  ),
});

export const Webhook = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  secretSet: Type.Boolean({ description: 'Always true: the secret is never returned.' }),
  disabledReason: Nullable(
    Type.Union([Type.Literal('gone'), Type.Literal('failing')], {
      description:
        'Why the platform switched it off: gone (the endpoint answered 410), failing (5 days of failed deliveries). ' +
        'Null when on or switched off by its owner.',
    }),
  ),
  disabledAt: Nullable(Time),
  failingSince: Nullable(
    Type.String({
      format: 'date-time',
      description: 'First failure of the current unbroken run of failed deliveries.',
    }),
  ),
  createdAt: Time,
  updatedAt: Time,
});

export const WebhookReply = Type.Object({
  success: Type.Boolean(),
  webhook: Webhook,
  secret: Type.Optional(
    Type.String({
      description: 'Only in the answer that created the webhook without a secret: the generated one, shown this once.',
    }),
  ),
});
export const WebhookListReply = Type.Object({ success: Type.Boolean(), webhooks: Type.Array(Webhook) });

export const TestReply = Type.Object({
  success: Type.Boolean(),
  test: Type.Object({
    statusCode: Type.Integer({
      description: "The receiving server's HTTP status; 0 when no response arrived (see error).",
    }),
    statusText: Type.String(),
    delivered: Type.Boolean(),
    deliveryId: Type.String(),
    durationMs: Type.Integer(),
    error: Nullable(AttemptError),
  }),
});

export const DeliveryRecord = Type.Object({
  deliveryId: Type.String({
    description: 'X-Service-Delivery: the same on every retry and redelivery of an event to this webhook.',
  }),
  webhookId: Type.String(),
  event: Type.String(),
  statusCode: Type.Integer({ description: 'HTTP status of the receiver; 0 when no response arrived.' }),
  delivered: Type.Boolean(),
  timestamp: Time,
  attempt: Type.Integer({ description: '1 for the first attempt of the delivery.' }),
  durationMs: Type.Integer(),
  error: Nullable(AttemptError),
  responseBody: Nullable(Type.String({ description: 'The first 4 KB of the response body.' })),
  deliveryState: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
    description:
      'Where the delivery of this attempt stands now: pending (a retry is scheduled or running), ' +
      'delivered, failed (given up).',
  }),
  deliveryAttempts: Type.Integer({ description: 'Attempts made of this delivery so far.' }),
  nextAttemptAt: Type.Union([Time, Type.Null()], {
    description: 'When the next retry of this delivery is due; null unless it is pending.',
  }),
  requestExcerpt: Type.String({
    description: 'The first 1,024 characters of the JSON body sent (the same bytes on every attempt).',
  }),
});
export const DeliveriesReply = Type.Object({ success: Type.Boolean(), deliveries: Type.Array(DeliveryRecord) });

export const RedeliverReply = Type.Object({
  success: Type.Boolean(),
  deliveryId: Type.String(),
  webhookId: Type.String(),
  event: Type.String(),
});
