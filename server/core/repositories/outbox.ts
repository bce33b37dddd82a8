import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { outbox, type OutboxRow } from '../platform/db/schema/index.js';

/** The outbox's rows. Times come from the database clock, the one that stamps the rows. */

/** A row to add: the job's queue, name, deterministic id and data, built by the service. */
export interface NewOutboxRow {
  queue: string;
  name: string;
  jobId: string;
  data: Record<string, unknown>;
  /** Handed to BullMQ only this long from now (a retry waiting for its time); default at once. */
  dueInMs?: number;
}

/** A row handed to BullMQ, and the carrier job it went in, if any. */
export interface SentOutboxRow {
  id: number;
  carrierJobId: string | null;
}

const inMs = (ms: number) => sql`now() + ${Math.round(ms)}::int * interval '1 millisecond'`;

/** Methods taking `tx` run in the caller's transaction (the one that records the job's work or result). */
export function createOutboxRepository(db: Db) {
  return {
    /** Adds rows (a job id already there adds nothing); the new rows' ids, in the order given. */
    async add(tx: Executor, rows: readonly NewOutboxRow[]): Promise<number[]> {
      if (rows.length === 0) return [];
      const added = await tx
        .insert(outbox)
        .values(
          rows.map((row) => ({
            queue: row.queue,
            jobName: row.name,
            jobId: row.jobId,
            payload: row.data,
            ...(row.dueInMs ? { nextAttemptAt: inMs(row.dueInMs) } : {}),
          })),
        )
        .onConflictDoNothing({ target: outbox.jobId })
        .returning({ id: outbox.id, jobId: outbox.jobId });
      const ids = new Map(added.map((row) => [row.jobId, row.id]));
      return rows.flatMap((row) => (ids.has(row.jobId) ? [ids.get(row.jobId)!] : []));
    },

    /** Removes a finished job's row; called in the transaction that records the job's result. */
    async complete(tx: Executor, jobId: string): Promise<void> {
      await tx.delete(outbox).where(eq(outbox.jobId, jobId));
    },

    async completeJobs(tx: Executor, jobIds: string[]): Promise<void> {
      await tx.delete(outbox).where(inArray(outbox.jobId, jobIds));
    },

    /**
     * Claims due rows with SKIP LOCKED and pushes them `claimMs` ahead in one statement, so no other
     * relay takes them meanwhile.
     */
    async claimDue(options: { keys: string[]; ids?: number[]; limit: number; claimMs: number }): Promise<OutboxRow[]> {
      const due = db
        .select({ id: outbox.id })
        .from(outbox)
        .where(
          and(
            options.ids ? inArray(outbox.id, options.ids) : undefined,
            inArray(sql`${outbox.queue} || '/' || ${outbox.jobName}`, options.keys),
            lte(outbox.nextAttemptAt, sql`now()`),
          ),
        )
        .orderBy(outbox.id)
        .limit(options.limit)
        .for('update', { skipLocked: true });
      // ARRAY(...) runs the locking subquery exactly once (an IN (...) may be re-planned as a join).
      const rows = await db
        .update(outbox)
        .set({ nextAttemptAt: inMs(options.claimMs) })
        .where(sql`${outbox.id} = any(array(${due}))`)
        .returning();
      return rows.sort((a, b) => a.id - b.id);
    },

    /** Records hand-overs in one statement: the rows are looked at again `checkAfterMs` from now. */
    async markSent(rows: readonly SentOutboxRow[], checkAfterMs: number): Promise<void> {
      if (rows.length === 0) return;
      const input = JSON.stringify(rows.map((r) => ({ id: r.id, c: r.carrierJobId })));
      await db.execute(sql`
        update outbox o set last_enqueued_at = now(), carrier_job_id = i.c, next_attempt_at = ${inMs(checkAfterMs)}
        from jsonb_to_recordset(${input}::jsonb) as i(id bigint, c text)
        where o.id = i.id
      `);
    },

    /** Rows to look at again in `ms`; `dropCarrier` also forgets the job they went in with others. */
    async checkLater(ids: number[], ms: number, dropCarrier = false): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(outbox)
        .set({ nextAttemptAt: inMs(ms), ...(dropCarrier ? { carrierJobId: null } : {}) })
        .where(inArray(outbox.id, ids));
    },
  };
}
