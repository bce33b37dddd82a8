import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';

/**
 * Visitor counters per project and UTC day (docs/api.md, Analytics), so reads never scan raw events. A hot day is
 * split over `shard` rows so writers never queue on one row; reads sum the shards.
 */
export const visitorDayCounters = pgTable(
  'visitor_day_counters',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull().default(0),
    views: integer('views').notNull().default(0),
    sessions: integer('sessions').notNull().default(0),
    optionChanges: integer('option_changes').notNull().default(0),
    submissions: integer('submissions').notNull().default(0),
    animations: integer('animations').notNull().default(0),
    arOpens: integer('ar_opens').notNull().default(0),
    saves: integer('saves').notNull().default(0),
    /** Cart configurations created, repeats included (docs/cart.md). */
    cartAdds: integer('cart_adds').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.day, t.shard] }),
    // The sweep's way to the rows it folds: only the current days have shards other than 0.
    index('visitor_day_counters_shards_idx')
      .on(t.day)
      .where(sql`${t.shard} <> 0`),
  ],
);

/**
 * `option.changed` counts per choice and day, sharded like the day rows. The migration's key INCLUDEs `count`
 * (drizzle cannot say it), so the top choices' range read is an index-only scan.
 */
export const visitorChoiceCounters = pgTable(
  'visitor_choice_counters',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull().default(0),
    blockId: text('block_id').notNull(),
    choiceId: text('choice_id').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.day, t.shard, t.blockId, t.choiceId] }),
    index('visitor_choice_counters_shards_idx')
      .on(t.day)
      .where(sql`${t.shard} <> 0`),
  ],
);

/**
 * The same counts per calendar month (`month`: its first day), so a long range reads a month as one row; sharded,
 * folded and covered (its key INCLUDEs `count`) like the per-day rows.
 */
export const visitorChoiceMonths = pgTable(
  'visitor_choice_months',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull().default(0),
    blockId: text('block_id').notNull(),
    choiceId: text('choice_id').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.month, t.shard, t.blockId, t.choiceId] }),
    index('visitor_choice_months_shards_idx')
      .on(t.month)
      .where(sql`${t.shard} <> 0`),
  ],
);

/** The sessions seen per day: an insert that adds a row is a new session-day (distinct, exact). */
export const visitorDaySessions = pgTable(
  'visitor_day_sessions',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    sessionId: text('session_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.sessionId] })],
);
