import { randomUUID } from 'node:crypto';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client.js';
import { jobLeases } from '../platform/db/schema/index.js';

/** A lease taken by `acquire`: the key and the token that proves who holds it. */
export interface Lease {
  key: string;
  holder: string;
}

const fromNow = (ms: number) => sql`now() + ${Math.round(ms)}::int * interval '1 millisecond'`;

/**
 * Leases on keys (see the job_leases table), timed by the database clock so that every process
 * agrees on when one has expired. Each call is one atomic statement.
 */
export function createLeaseRepository(db: Executor) {
  return {
    /** Takes the lease on `key` for `ms` when free or expired; null while someone else holds it. */
    async acquire(key: string, ms: number): Promise<Lease | null> {
      const holder = randomUUID();
      const [row] = await db
        .insert(jobLeases)
        .values({ key, holder, expiresAt: fromNow(ms) })
        .onConflictDoUpdate({
          target: jobLeases.key,
          set: { holder, expiresAt: fromNow(ms) },
          setWhere: lte(jobLeases.expiresAt, sql`now()`),
        })
        .returning({ holder: jobLeases.holder });
      return row ? { key, holder } : null;
    },

    /** Extends a lease still held to `ms` from now; false when it expired and someone else took it. */
    async renew(lease: Lease, ms: number): Promise<boolean> {
      const rows = await db
        .update(jobLeases)
        .set({ expiresAt: fromNow(ms) })
        .where(
          and(eq(jobLeases.key, lease.key), eq(jobLeases.holder, lease.holder), gt(jobLeases.expiresAt, sql`now()`)),
        )
        .returning({ key: jobLeases.key });
      return rows.length > 0;
    },

    /** Gives a lease back (a no-op when someone else holds it by now). */
    async release(lease: Lease): Promise<void> {
      await db.delete(jobLeases).where(and(eq(jobLeases.key, lease.key), eq(jobLeases.holder, lease.holder)));
    },
  };
}

export type LeaseRepository = ReturnType<typeof createLeaseRepository>;
