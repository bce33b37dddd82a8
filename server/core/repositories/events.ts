import { projectEvents } from '../platform/db/schema/index.js';
import type { Executor } from '../platform/db/client.js';

/** The event types the interface defines for webhooks. */
export const EVENT_TYPES = [
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
export type EventType = (typeof EVENT_TYPES)[number];

export interface EmitEventInput {
  workspaceId: string;
  projectId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** Makes the emit idempotent: a second emit with the same key is ignored. */
  dedupeKey?: string;
}

/**
 * The one way the product emits a project event. Call it inside the transaction that makes the
 * change, so the event exists exactly when the change does. Webhook dispatch reads these rows.
 */
export async function emitEvent(db: Executor, input: EmitEventInput): Promise<void> {
  await db
    .insert(projectEvents)
    .values({ workspaceId: input.workspaceId, projectId: input.projectId, type: input.type, data: input.data, dedupeKey: input.dedupeKey ?? null })
    .onConflictDoNothing({ target: projectEvents.dedupeKey });
}
