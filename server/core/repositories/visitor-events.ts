import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../platform/db/client.js';
import { visitorCountsCtes, type CallCounts } from './visitor-counters.js';
import type { NewOutboxRow } from './outbox.js';

const dialect = new PgDialect();

/** One accepted visitor event as a project event. */
export interface NewVisitorEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** Placeholders in a delivery's first job (`jobId`, `data`) for the ids the statement creates. */
export const DELIVERY_ID = '{deliveryId}';
export const WEBHOOK_ID = '{webhookId}';

/** An outbox row the statement added: its id and its filled-in job id and data. */
export interface QueuedVisitorDelivery {
  id: number;
  jobId: string;
  data: Record<string, unknown>;
}

export function createVisitorEventRepository(db: Db) {
  return {
    /**
     * Records one call in a single statement (events, deliveries with their outbox jobs, day counters), so
     * counter rows stay locked only until it commits. Returns the outbox rows added, in no order.
     *
     * The events travel once as a JSON array: Postgres keeps each element's text as given, so delivery bodies
     * built there match `serializeDeliveryBody`'s bytes (the visitor events tests hold the two to the same bytes).
     */
    async recordVisitorCall(call: {
      workspaceId: string;
      projectId: string;
      createdAt: Date;
      events: readonly NewVisitorEvent[];
      job: NewOutboxRow;
      counts: CallCounts;
    }): Promise<QueuedVisitorDelivery[]> {
      const { workspaceId, projectId, events, job } = call;
      const createdAt = call.createdAt.toISOString();
      const fill = (template: string) =>
        sql`replace(replace(${template}, ${DELIVERY_ID}, d.id::text), ${WEBHOOK_ID}, d.webhook_id::text)`;
      const statement = dialect.sqlToQuery(sql`
        with incoming as (
          select * from unnest(
            ${sql.param(events.map((e) => e.id))}::uuid[],
            ${sql.param(events.map((e) => e.type))}::text[],
            array(
              select value from json_array_elements(${JSON.stringify(events.map((e) => e.data))}::json)
                with ordinality as d(value, n) order by n
            )
          ) as e(id, type, data)
        ), event as (
          insert into project_events (id, workspace_id, project_id, type, data, created_at)
          select id, ${workspaceId}, ${projectId}, type, data::jsonb, ${createdAt} from incoming
          returning id, type
        ), delivery as (
          insert into webhook_deliveries (workspace_id, project_id, webhook_id, event_id, event, body, next_attempt_at)
          select w.workspace_id, w.project_id, w.id, event.id, event.type,
            '{"id":' || to_json(event.id::text)::text || ',"event":' || to_json(event.type)::text
              || ',"createdAt":' || to_json(${createdAt}::text)::text
              || ',"projectId":' || to_json(${projectId}::text)::text
              || ',"data":' || incoming.data::text || '}',
            now()
          from event
          join incoming on incoming.id = event.id
          join webhooks w on w.project_id = ${projectId} and w.enabled and event.type = any (w.events)
          returning id, webhook_id
        ), queued as (
          insert into outbox (queue, job_name, job_id, payload)
          select ${job.queue}, ${job.name}, ${fill(job.jobId)}, ${fill(JSON.stringify(job.data))}::jsonb
          from delivery d
          returning id, job_id, payload
        ), ${visitorCountsCtes(call.counts)}
        select id, job_id, payload from queued
      `);
      // Named: each pooled connection parses and plans this statement once, not per call.
      const result = await db.$client.query<{ id: string; job_id: string; payload: Record<string, unknown> }>({
        name: 'record-visitor-call',
        text: statement.sql,
        values: statement.params,
      });
      return result.rows.map((row) => ({ id: Number(row.id), jobId: row.job_id, data: row.payload }));
    },

    /**
     * Deletes up to `limit` visitor events (of `types`) created before `before`; the number deleted.
     * Their deliveries keep their own copy of the body (the event link becomes null).
     */
    async deleteVisitorEventsBefore(types: readonly string[], before: Date, limit: number): Promise<number> {
      const result = await db.execute(sql`
        delete from project_events where id in (
          select id from project_events
          where type = any (${sql.param([...types])}::text[]) and created_at < ${before.toISOString()}
          limit ${limit}
        )
      `);
      return result.rowCount ?? 0;
    },
  };
}
