import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '#core/platform/db/client.js';
import { isDependencyDown } from '#core/platform/dependency-errors.js';
import { createTestEnv, type TestEnv } from '../../helpers/test-env.js';

/**
 * Postgres ending a connection a transaction holds (a restart, a failover): the transaction fails as "unavailable",
 * and the process lives on, since an 'error' event no listener hears would end it.
 */
let env: TestEnv;
let db: Db;

beforeAll(async () => {
  env = await createTestEnv();
  db = createDb(env.databaseUrl, 2);
});

afterAll(async () => {
  await db?.$client.end();
  await env?.cleanup();
});

it('fails the transaction whose connection Postgres ended, and serves the next query on a new one', async () => {
  const admin = new pg.Client({ connectionString: env.databaseUrl });
  await admin.connect();
  // The pool's fresh client the transaction below gets; 'end' is heard here, 'error' deliberately not.
  const lent = new Promise<pg.Client>((resolve) => db.$client.once('connect', resolve));
  try {
    const ended = db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
      const client = await lent;
      const gone = new Promise((resolve) => client.once('end', resolve));
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      // Between two statements: no query is running to receive the error, only the client itself.
      await gone;
      await tx.execute(sql`select 1`);
    });
    const error = await ended.then(
      () => null,
      (failure: unknown) => failure,
    );
    // What the error handler answers 503 `unavailable` to, not 500.
    expect(isDependencyDown(error)).toBe(true);
    const { rows } = await db.$client.query<{ one: number }>('select 1 as one');
    expect(rows[0]!.one).toBe(1);
  } finally {
    await admin.end();
  }
});
