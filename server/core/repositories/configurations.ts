import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { configurations, visitorDayCounters, type ConfigurationRow } from '../platform/db/schema/index.js';
import { randomShard } from './visitor-counters.js';
import { afterCursor, toPage, type PageCursor } from './pagination.js';

export type NewConfiguration = typeof configurations.$inferInsert;

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
     * Stores a new configuration, or, when one with its id exists, moves its expiry on and keeps the rest (its first
     * creation and picture; an expired one not yet swept starts again), and counts a cart add on `day`, in one
     * statement. `created`: whether it is new, or started again.
     */
    async createOrRepeat(values: NewConfiguration, day: string, now = new Date()) {
      const counted = db.$with('counted').as(
        db
          .insert(visitorDayCounters)
          .values({ projectId: values.projectId, day, shard: randomShard(), cartAdds: 1 })
          .onConflictDoUpdate({
            target: [visitorDayCounters.projectId, visitorDayCounters.day, visitorDayCounters.shard],
            set: { cartAdds: sql`${visitorDayCounters.cartAdds} + 1` },
          })
          .returning({ day: visitorDayCounters.day }),
      );
      const [row] = await db
        .with(counted)
        .insert(configurations)
        .values(values)
        .onConflictDoUpdate({
          target: configurations.id,
          set: {
            expiresAt: sql`excluded.expires_at`,
            createdAt: sql`case when ${configurations.expiresAt} <= ${now} then excluded.created_at
              else ${configurations.createdAt} end`,
            imageKey: sql`case when ${configurations.expiresAt} <= ${now} or ${configurations.imageKey} is null
              then excluded.image_key else ${configurations.imageKey} end`,
          },
        })
        // New: inserted, or an expired one started again (its creation time is this request's).
        .returning({
          ...getTableColumns(configurations),
          created: sql<boolean>`xmax = 0 or ${configurations.createdAt} = ${values.createdAt ?? now}`,
        });
      const { created, ...stored } = row;
      return { row: stored as ConfigurationRow, created: Boolean(created) };
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
