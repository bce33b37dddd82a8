import { sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client.js';

/** One accepted visitor event as a project event, with its delivery body serialized once. */
export interface NewVisitorEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  /** The delivery body; only read when a webhook subscribes to the type. */
  body: string;
}

/** A delivery the call created: who gets it, under which delivery id. */
export interface NewVisitorDelivery {
  deliveryId: string;
  webhookId: string;
}

/**
 * Records the accepted events of one call as project events and, in the same statement, one
 * delivery per event and enabled webhook of the project that subscribes to its type.
 */
export async function insertVisitorEvents(
  tx: Executor,
  call: { workspaceId: string; projectId: string; createdAt: Date; events: readonly NewVisitorEvent[] },
): Promise<NewVisitorDelivery[]> {
  if (call.events.length === 0) return [];
  const { workspaceId, projectId, events } = call;
  const result = await tx.execute<{ delivery_id: string; webhook_id: string }>(sql`
    with incoming as (
      select * from unnest(
        ${sql.param(events.map((e) => e.id))}::uuid[],
        ${sql.param(events.map((e) => e.type))}::text[],
        ${sql.param(events.map((e) => JSON.stringify(e.data)))}::jsonb[],
        ${sql.param(events.map((e) => e.body))}::text[]
      ) as e(id, type, data, body)
    ), event as (
      insert into project_events (id, workspace_id, project_id, type, data, created_at)
      select id, ${workspaceId}, ${projectId}, type, data, ${call.createdAt.toISOString()} from incoming
      returning id, type
    ), delivery as (
      insert into webhook_deliveries (workspace_id, project_id, webhook_id, event_id, event, body, next_attempt_at)
      select w.workspace_id, w.project_id, w.id, event.id, event.type, incoming.body, now()
      from event
      join incoming on incoming.id = event.id
      join webhooks w on w.project_id = ${projectId} and w.enabled and event.type = any (w.events)
      returning id, webhook_id
    )
    select id as delivery_id, webhook_id from delivery
  `);
  return result.rows.map((row) => ({ deliveryId: row.delivery_id, webhookId: row.webhook_id }));
}

/**
 * Deletes up to `limit` visitor events (of `types`) created before `before`; the number deleted.
 * Their deliveries keep their own copy of the body (the event link becomes null).
 */
export async function deleteVisitorEventsBefore(
  db: Executor,
  types: readonly string[],
  before: Date,
  limit: number,
): Promise<number> {
  const result = await db.execute(sql`
    delete from project_events where id in (
      select id from project_events
      where type = any (${sql.param([...types])}::text[]) and created_at < ${before.toISOString()}
      limit ${limit}
    )
  `);
  return result.rowCount ?? 0;
}
