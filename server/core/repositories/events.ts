import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';

export interface NewEvent {
  id: string;
  workspaceId: string;
  projectId: string;
  type: string;
  data: Record<string, unknown>;
  dedupeKey: string | null;
  createdAt: Date;
  /** The delivery body, serialized once. */
  body: string;
}

/** A delivery an event created: who gets it, under which delivery id. */
export interface NewDelivery {
  webhookId: string;
  deliveryId: string;
}

export function createEventRepository(db: Db) {
  return {
    /**
     * Records a project event and its deliveries in one statement; null when the dedupe key was used,
     * so a repeated emit adds nothing.
     */
    async insertEventWithDeliveries(event: NewEvent, executor: Executor = db): Promise<NewDelivery[] | null> {
      const result = await executor.execute<{
        emitted: boolean;
        delivery_id: string | null;
        webhook_id: string | null;
      }>(sql`
        with event as (
          insert into project_events (id, workspace_id, project_id, type, data, dedupe_key, created_at)
          values (${event.id}, ${event.workspaceId}, ${event.projectId}, ${event.type},
            ${JSON.stringify(event.data)}::jsonb, ${event.dedupeKey}, ${event.createdAt.toISOString()})
          on conflict (dedupe_key) do nothing
          returning id, project_id, type
        ), delivery as (
          insert into webhook_deliveries (workspace_id, project_id, webhook_id, event_id, event, body, next_attempt_at)
          select w.workspace_id, w.project_id, w.id, event.id, event.type, ${event.body}, now()
          from event join webhooks w on w.project_id = event.project_id and w.enabled and event.type = any (w.events)
          on conflict (event_id, project_id, webhook_id) do nothing
          returning id, webhook_id
        )
        select (select count(*) > 0 from event) as emitted, delivery.id as delivery_id, delivery.webhook_id
        from (select 1) one left join delivery on true
      `);
      const rows = result.rows;
      if (!rows[0]?.emitted) return null;
      return rows.flatMap((row) =>
        row.delivery_id && row.webhook_id ? [{ deliveryId: row.delivery_id, webhookId: row.webhook_id }] : [],
      );
    },
  };
}
