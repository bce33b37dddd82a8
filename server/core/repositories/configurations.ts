import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { configurations, type ConfigurationRow } from '../platform/db/schema/index.js';
import { randomShard } from './visitor-counters.js';
import { afterCursor, toPage, type PageCursor } from './pagination.js';

export type NewConfiguration = typeof configurations.$inferInsert;

const COLUMNS = Object.entries(getTableColumns(configurations));

/** A row as a raw statement answers it (snake_case, timestamps as text), in the table's own types. */
function rowOf(raw: Record<string, unknown>): ConfigurationRow {
  return Object.fromEntries(
    COLUMNS.map(([key, column]) => {
      const value = raw[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as ConfigurationRow;
}

/** Cart configurations (docs/cart.md); an expired one reads as missing until the sweep removes it. */
export function createConfigurationRepository(db: Db) {
  const live = (now: Date) => gt(configurations.expiresAt, now);
  return {
    async get(id: string, now = new Date()): Promise<ConfigurationRow | null> {
      const [row] = await db
        .select()
        .from(configurations)
        .where(and(eq(configurations.id, id), live(now)));
      return row ?? null;
    },

    /**
     * Stores a new configuration, or finds the one with its id: a live one that this repeat would not change (its
     * expiry already as late, its picture kept) is answered as it is, with nothing written, so repeats of one
     * configuration never queue on its row; otherwise its expiry moves on (its first creation and picture kept; an
     * expired one not yet swept starts again). The day's cart add (`day`, repeats included) is counted in the same
     * statement, on a shard of its own. `created`: new, or started again.
     */
    async createOrRepeat(values: NewConfiguration, day: string, now: Date) {
      const v = values;
      // A data-modifying WITH runs whether or not the query reads it.
      const result = await db.execute<Record<string, unknown>>(sql`
        with counted as (
          insert into visitor_day_counters as t (project_id, day, shard, cart_adds)
          values (${v.projectId}::uuid, ${day}::date, ${randomShard()}, 1)
          on conflict (project_id, day, shard) do update set cart_adds = t.cart_adds + 1
        ), current as (
          select * from configurations
          where id = ${v.id} and expires_at > ${now} and expires_at >= ${v.expiresAt}
            and (image_key is not null or ${v.imageKey ?? null}::text is null)
        ), written as (
          insert into configurations as c (id, project_id, workspace_id, revision, options, fields, quantity, price,
            sku, summary, image_key, created_at, expires_at)
          select ${v.id}, ${v.projectId}::uuid, ${v.workspaceId}::uuid, ${v.revision}::int,
            ${JSON.stringify(v.options)}::jsonb, ${JSON.stringify(v.fields)}::jsonb, ${v.quantity}::int,
            ${v.price ? JSON.stringify(v.price) : null}::jsonb, ${v.sku ?? null}::text, ${v.summary},
            ${v.imageKey ?? null}::text, ${v.createdAt ?? now}::timestamptz, ${v.expiresAt}::timestamptz
          where not exists (select 1 from current)
          on conflict (id) do update set
            expires_at = greatest(c.expires_at, excluded.expires_at),
            created_at = case when c.expires_at <= ${now} then excluded.created_at else c.created_at end,
            image_key = case when c.expires_at <= ${now} or c.image_key is null then excluded.image_key
              else c.image_key end
          -- New: inserted, or an expired one started again (the creation time is this request's).
          returning *, xmax = 0 or created_at = ${v.createdAt ?? now}::timestamptz as created
        )
        select *, false as created from current
        union all
        select * from written
      `);
      const { created, ...stored } = result.rows[0];
      return { row: rowOf(stored), created: Boolean(created) };
    },

    async list(workspaceId: string, projectId: string, limit: number, cursor: PageCursor | null, now = new Date()) {
      const page = afterCursor(configurations.createdAt, configurations.id, cursor);
      const rows = await db
        .select()
        .from(configurations)
        .where(
          and(
            eq(configurations.workspaceId, workspaceId),
            eq(configurations.projectId, projectId),
            live(now),
            page.where,
          ),
        )
        .orderBy(...page.orderBy)
        .limit(limit + 1);
      return toPage(rows, limit);
    },

    /** Removes up to `limit` expired configurations; answers how many, and their pictures' keys to delete. */
    async deleteExpired(executor: Executor, now: Date, limit: number) {
      const result = await executor.execute<{ image_key: string | null }>(sql`
        delete from configurations where id = any (array(
          select id from configurations where expires_at <= ${now} limit ${limit}
        ))
        returning image_key
      `);
      const keys = result.rows.flatMap((row) => (row.image_key ? [row.image_key] : []));
      return { count: result.rows.length, keys };
    },
  };
}
