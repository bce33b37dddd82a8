import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import type { DayRange, MonthSpans } from '../domain/visitor-events/month-spans.js';

/**
 * The visitor day counters (docs/api.md, Analytics). Writers pick a random shard so concurrent calls never queue on one
 * row; the hourly sweep folds past days into shard 0, so a long range reads one row per day.
 */

/** Shards per project and day. */
const COUNTER_SHARDS = 8;

export const randomShard = () => Math.floor(Math.random() * COUNTER_SHARDS);

/** An upsert's `do update` that adds the incoming row's `columns` to the stored ones. */
const addedUp = (columns: readonly string[]) => sql.raw(columns.map((c) => `${c} = t.${c} + excluded.${c}`).join(', '));

/** What one call adds to its day. */
export interface DayIncrements {
  views: number;
  optionChanges: number;
  animations: number;
  arOpens: number;
  saves: number;
}

export interface ChoiceIncrement {
  blockId: string;
  choiceId: string;
  count: number;
}

/** One call's counts on its day; `shard` is the row the call writes (`randomShard()`). */
export interface CallCounts {
  projectId: string;
  day: string;
  sessionId: string;
  counts: DayIncrements;
  choices: readonly ChoiceIncrement[];
  shard: number;
}

/**
 * The CTEs that add one call's counts to its day's shard, for the statement that also records its events
 * (visitor-events.ts): the row locks are then held only inside Postgres, never across a round trip.
 */
export function visitorCountsCtes(input: CallCounts): SQL {
  const { projectId, day, sessionId, counts, shard } = input;
  // Sorted, so concurrent calls on one shard lock the choice rows in one order.
  const choices = [...input.choices].sort((a, b) =>
    a.blockId === b.blockId ? (a.choiceId < b.choiceId ? -1 : 1) : a.blockId < b.blockId ? -1 : 1,
  );
  return sql`
    new_session as (
      insert into visitor_day_sessions (project_id, day, session_id)
      values (${projectId}, ${day}, ${sessionId})
      on conflict do nothing
      returning 1
    ), incoming_choices as (
      select * from unnest(
        ${sql.param(choices.map((c) => c.blockId))}::text[],
        ${sql.param(choices.map((c) => c.choiceId))}::text[],
        ${sql.param(choices.map((c) => c.count))}::int[]
      ) with ordinality as c(block_id, choice_id, n, position)
    ), choice_counts as (
      insert into visitor_choice_counters as t (project_id, day, shard, block_id, choice_id, count)
      select ${projectId}, ${day}, ${shard}, c.block_id, c.choice_id, c.n from incoming_choices c order by c.position
      on conflict (project_id, day, shard, block_id, choice_id) do update set count = t.count + excluded.count
      returning 1
    ), choice_month_counts as (
      insert into visitor_choice_months as t (project_id, month, shard, block_id, choice_id, count)
      select ${projectId}, date_trunc('month', ${day}::date)::date, ${shard}, c.block_id, c.choice_id, c.n
      from incoming_choices c order by c.position
      on conflict (project_id, month, shard, block_id, choice_id) do update set count = t.count + excluded.count
      returning 1
    ), day_counts as (
      insert into visitor_day_counters as t
        (project_id, day, shard, views, sessions, option_changes, animations, ar_opens, saves)
      values (${projectId}, ${day}, ${shard}, ${counts.views}, (select count(*) from new_session),
        ${counts.optionChanges}, ${counts.animations}, ${counts.arOpens}, ${counts.saves})
      on conflict (project_id, day, shard) do update set
        ${addedUp(['views', 'sessions', 'option_changes', 'animations', 'ar_opens', 'saves'])}
      returning 1
    )`;
}

/** The day rows' counter columns, as a fold adds them up. */
const DAY_COUNTERS = [
  ...['views', 'sessions', 'option_changes', 'submissions'],
  ...['animations', 'ar_opens', 'saves', 'cart_adds'],
];

/** One day's counters, the shards summed. */
export interface DayCounts {
  date: string;
  views: number;
  sessions: number;
  optionChanges: number;
  submissions: number;
  animations: number;
  arOpens: number;
  saves: number;
  cartAdds: number;
}

const choicesOfDays = (projectId: string, days: DayRange) =>
  sql`select block_id, choice_id, count from visitor_choice_counters
    where project_id = ${projectId} and day between ${days.from}::date and ${days.to}::date`;

/** Folds up to `limit` shard rows of a choice table whose period is before `before` into shard 0. */
function foldChoiceShards(
  db: Executor,
  table: 'visitor_choice_counters' | 'visitor_choice_months',
  period: 'day' | 'month',
  before: SQL,
  limit: number,
) {
  const [t, p] = [sql.identifier(table), sql.identifier(period)];
  return db.execute(sql`
    with moved as (
      delete from ${t} where ctid = any (array(
        select ctid from ${t} where shard <> 0 and ${p} < ${before} limit ${limit}
      ))
      returning project_id, ${p}, block_id, choice_id, count
    ), folded as (
      insert into ${t} as t (project_id, ${p}, shard, block_id, choice_id, count)
      select project_id, ${p}, 0, block_id, choice_id, sum(count) from moved
      group by project_id, ${p}, block_id, choice_id
      order by project_id, ${p}, block_id, choice_id
      on conflict (project_id, ${p}, shard, block_id, choice_id) do update set count = t.count + excluded.count
    )
    select count(*)::int as rows from moved
  `);
}

export function createVisitorCounterRepository(db: Db) {
  return {
    /** Adds one call's counts to its day in a statement of its own (no events recorded with them). */
    async addVisitorCounts(input: Omit<CallCounts, 'shard'>): Promise<void> {
      await db.execute(sql`with ${visitorCountsCtes({ ...input, shard: randomShard() })} select 1`);
    },

    /** Counts one submitted request on its day (a statement of its own). */
    async addSubmission(projectId: string, day: string): Promise<void> {
      await db.execute(sql`
        insert into visitor_day_counters as t (project_id, day, shard, submissions)
        values (${projectId}, ${day}, ${randomShard()}, 1)
        on conflict (project_id, day, shard) do update set submissions = t.submissions + 1
      `);
    },

    /** Every day from `from` to `to` (inclusive, oldest first), zeros where nothing was counted. */
    async readDays(projectId: string, from: string, to: string): Promise<DayCounts[]> {
      const result = await db.execute<Record<keyof DayCounts, string | number>>(sql`
        select to_char(d.day, 'YYYY-MM-DD') as "date",
          coalesce(sum(c.views), 0)::int as "views",
          coalesce(sum(c.sessions), 0)::int as "sessions",
          coalesce(sum(c.option_changes), 0)::int as "optionChanges",
          coalesce(sum(c.submissions), 0)::int as "submissions",
          coalesce(sum(c.animations), 0)::int as "animations",
          coalesce(sum(c.ar_opens), 0)::int as "arOpens",
          coalesce(sum(c.saves), 0)::int as "saves",
          coalesce(sum(c.cart_adds), 0)::int as "cartAdds"
        from generate_series(${from}::date, ${to}::date, interval '1 day') as d(day)
        left join visitor_day_counters c on c.project_id = ${projectId} and c.day = d.day::date
          and c.day between ${from}::date and ${to}::date
        group by d.day
        order by d.day
      `);
      return result.rows.map((row) => ({
        date: String(row.date),
        views: Number(row.views),
        sessions: Number(row.sessions),
        optionChanges: Number(row.optionChanges),
        submissions: Number(row.submissions),
        animations: Number(row.animations),
        arOpens: Number(row.arOpens),
        saves: Number(row.saves),
        cartAdds: Number(row.cartAdds),
      }));
    },

    /**
     * The most changed-to choices over the range, most first (ties by block and choice id): whole
     * months from the month rows, the days around them from the day rows.
     */
    async readTopChoices(projectId: string, spans: MonthSpans, limit: number): Promise<ChoiceIncrement[]> {
      const parts = [
        spans.headDays && choicesOfDays(projectId, spans.headDays),
        spans.months &&
          sql`select block_id, choice_id, count from visitor_choice_months
            where project_id = ${projectId} and month between ${spans.months.from}::date and ${spans.months.to}::date`,
        spans.tailDays && choicesOfDays(projectId, spans.tailDays),
      ].filter((part) => part !== null);
      const result = await db.execute<{ block_id: string; choice_id: string; count: string }>(sql`
        select block_id, choice_id, sum(count) as count
        from (${sql.join(parts, sql` union all `)}) c
        group by block_id, choice_id
        order by sum(count) desc, block_id, choice_id
        limit ${limit}
      `);
      return result.rows.map((row) => ({ blockId: row.block_id, choiceId: row.choice_id, count: Number(row.count) }));
    },

    /**
     * Folds up to `limit` shard rows of past days and months into shard 0, one statement per table so counts move
     * atomically; returns the rows folded. Writers touch only the current day, so folded rows stay folded.
     */
    async foldShardsBefore(day: string, limit: number): Promise<number> {
      const choices = await foldChoiceShards(db, 'visitor_choice_counters', 'day', sql`${day}::date`, limit);
      const days = await db.execute(sql`
        with moved as (
          delete from visitor_day_counters where ctid = any (array(
            select ctid from visitor_day_counters where shard <> 0 and day < ${day}::date limit ${limit}
          ))
          returning *
        ), folded as (
          insert into visitor_day_counters as t
            (project_id, day, shard, views, sessions, option_changes, submissions,
              animations, ar_opens, saves, cart_adds)
          select project_id, day, 0, sum(views), sum(sessions), sum(option_changes), sum(submissions),
            sum(animations), sum(ar_opens), sum(saves), sum(cart_adds)
          from moved group by project_id, day
          order by project_id, day
          on conflict (project_id, day, shard) do update set
            ${addedUp(DAY_COUNTERS)}
        )
        select count(*)::int as rows from moved
      `);
      const months = await foldChoiceShards(
        db,
        'visitor_choice_months',
        'month',
        sql`date_trunc('month', ${day}::date)::date`,
        limit,
      );
      return [choices, days, months].reduce((n, result) => n + Number(result.rows[0]?.rows ?? 0), 0);
    },

    /**
     * Forgets the sessions of days before `day`: their counts are in the day rows already, and only
     * the current day's are ever checked.
     */
    async deleteSessionsBefore(day: string): Promise<number> {
      const result = await db.execute(sql`delete from visitor_day_sessions where day < ${day}::date`);
      return result.rowCount ?? 0;
    },
  };
}
