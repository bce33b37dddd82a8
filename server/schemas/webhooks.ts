import { Type } from 'typebox';
import { OpaqueObject, Uuid } from './common.js';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_ID_PATTERN } from '../core/domain/webhooks/event-types.js';

/** Shapes of the webhook routes (docs/api.md, Webhooks); those the owner console reads live in server/core/wire. */
export {
  DeliveriesReply,
  RedeliverReply,
  TestReply,
  WebhookInput,
  WebhookListReply,
  WebhookReply,
} from '../core/wire/webhooks.js';

const WebhookId = Type.String({
  pattern: WEBHOOK_ID_PATTERN,
  description: 'Chosen by the caller: 1 to 64 of A-Z a-z 0-9 _ -.',
});
export const ProjectParams = Type.Object({ projectId: Uuid });
export const WebhookParams = Type.Object({ projectId: Uuid, webhookId: WebhookId });
export const DeliveryParams = Type.Object({ projectId: Uuid, webhookId: WebhookId, deliveryId: Uuid });

export const TriggerInput = Type.Object({
  event: Type.String({ maxLength: 100, description: `A supported event type: ${WEBHOOK_EVENT_TYPES.join(', ')}.` }),
  data: Type.Optional(OpaqueObject),
});
export const TriggerReply = Type.Object({
  success: Type.Boolean(),
  event: Type.String(),
  eventId: Type.String(),
  deliveries: Type.Array(Type.Object({ webhookId: Type.String(), deliveryId: Type.String() })),
});
