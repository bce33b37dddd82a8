import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { fromProjectRoot } from '../project-root.js';
import * as schema from './schema/index.js';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A transaction handle: the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the pool or a transaction, for repository methods that run in both. */
export type Executor = Db | Tx;

const MIGRATIONS_DIR = fromProjectRoot('server/core/platform/db/migrations');

export interface DbOptions {
  /**
   * Whether a commit waits for its WAL to reach disk (default true). Off only where lost writes are redone
   * anyway (webhook attempts: at-least-once, receivers de-duplicate).
   */
  synchronousCommit?: boolean;
}

/** Opens a pool. Callers own it and close it with `db.$client.end()`. */
export function createDb(databaseUrl: string, poolSize = 10, options: DbOptions = {}): Db {
  // A Postgres that does not answer, or a pool that stays full for 5 s (overload), fails the
  // request with 503 and Retry-After instead of holding it: load is shed, not queued without end.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    ...(options.synchronousCommit === false ? { options: '-c synchronous_commit=off' } : {}),
  });
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // The pool stops listening to a client while it is lent out: a connection Postgres ends then (a restart
  // mid-transaction) would crash the process. The holder's next query fails instead, and the pool drops it.
  pool.on('connect', (client) => client.on('error', () => {}));
  return drizzle(pool, { schema, casing: 'snake_case' }) as Db;
}

/**
 * Applies the drizzle-kit migrations under a Postgres advisory lock, because drizzle does not serialise
 * processes that start together.
 */
export async function applyMigrations(db: Db): Promise<void> {
  const client = await db.$client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(7312001)');
    try {
      await migrate(drizzle(client, { schema, casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query('SELECT pg_advisory_unlock(7312001)');
    }
  } finally {
    client.release();
  }
}

export { schema };
