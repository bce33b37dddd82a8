import { and, eq, getTableColumns, gt, lte, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { configurations, visitorDayCounters, type ConfigurationRow } from '../platform/db/schema/index.js';
import { randomShard } from './visitor-counters.js';
import { afterCursor, toPage, type PageCursor } from './pagination.js';

export type NewConfiguration = typeof configurations.$inferInsert;

/** The day's cart add (repeats included), as a statement's CTE: counted with the configuration. */
function cartAddOn(db: Db, projectId: string, day: string) {
  return db.$with('counted').as(
    db
      .insert(visitorDayCounters)
      .values({ projectId, day, shard: randomShard(), cartAdds: 1 })
      .onConflictDoUpdate({
        target: [visitorDayCounters.projectId, visitorDayCounters.day, visitorDayCounters.shard],
        set: { cartAdds: sql`${visitorDayCounters.cartAdds} + 1` },
      })
      .returning({ day: visitorDayCounters.day }),
  );
}

/**
 * Inserts the configuration, or moves a live one's expiry on (keeping its creation, and its picture when it has one),
 * counting a cart add on `countOn` when given. No row when one with its id is expired. `created`: inserted (xmax 0).
 */
function upsertLive(db: Db, values: NewConfiguration, countOn: string | null, now: Date) {
  const builder = countOn ? db.with(cartAddOn(db, values.projectId, countOn)) : db;
  return builder
    .insert(configurations)
    .values(values)
    .onConflictDoUpdate({
      target: configurations.id,
      set: {
        expiresAt: sql`excluded.expires_at`,
        imageKey: sql`coalesce(${configurations.imageKey}, excluded.image_key)`,
      },
      setWhere: gt(configurations.expiresAt, now),
    })
    .returning({ ...getTableColumns(configurations), created: sql<boolean>`xmax = 0` });
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
     * Stores a new configuration, or, when a live one with its id exists, moves its expiry on and keeps the rest (its
     * first creation and picture), and counts a cart add on `day`, in one statement. An expired one not yet swept
     * starts again as new. `created`: whether it is new, or started again.
     */
    async createOrRepeat(values: NewConfiguration, day: string, now = new Date()) {
      let countOn: string | null = day;
      for (;;) {
        const [stored] = await upsertLive(db, values, countOn, now);
        if (stored) {
          const { created, ...row } = stored;
          return { row: row as ConfigurationRow, created };
        }
        countOn = null;
        // The row with this id is expired: it starts again, unless another request did that first (then a repeat).
        const [restarted] = await db
          .update(configurations)
          .set({ createdAt: values.createdAt, expiresAt: values.expiresAt, imageKey: values.imageKey ?? null })
          .where(and(eq(configurations.id, values.id), lte(configurations.expiresAt, now)))
          .returning();
        if (restarted) return { row: restarted, created: true };
      }
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
