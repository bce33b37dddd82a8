/**
 * The event types a webhook may subscribe to: the interface's list. `webhook.test` is sent only
 * by the test endpoint and cannot be subscribed to. No Node imports: browser code imports this file.
 */
export const WEBHOOK_EVENT_TYPES = [
  'quote.submitted',
  'quote.updated',
  'quote.deleted',
  'option.changed',
  'price.calculated',
  'form.submitted',
  'project.updated',
  'project.published',
  'viewer.screenshot',
  'animation.triggered',
] as const;
/** One of {@link WEBHOOK_EVENT_TYPES}. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
