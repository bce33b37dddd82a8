import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../../../server/core/platform/db/client.js';
import { createLeaseRepository, type LeaseRepository } from '../../../../server/core/repositories/leases.js';
import { createTestEnv, type TestEnv } from '../../../helpers/test-env.js';

/** Generic leases on a real Postgres: one holder at a time, until it releases or its lease expires. */
let env: TestEnv;
let db: Db;
let leases: LeaseRepository;

beforeAll(async () => {
  env = await createTestEnv();
  db = createDb(env.databaseUrl, 4);
  leases = createLeaseRepository(db);
});
afterAll(async () => {
  await db?.$client.end();
  await env?.cleanup();
});

const expire = (key: string) =>
  db.$client.query(`update job_leases set expires_at = now() - interval '1 millisecond' where key = $1`, [key]);

describe('leases', () => {
  it('refuses a second acquire while the lease is held, and grants it once the lease expired', async () => {
    const first = await leases.acquire('held', 60_000);
    expect(first).toEqual({ key: 'held', holder: expect.any(String) });
    expect(await leases.acquire('held', 60_000)).toBeNull();
    await expire('held');
    const second = await leases.acquire('held', 60_000);
    expect(second).not.toBeNull();
    expect(second!.holder).not.toBe(first!.holder);
    // The first holder lost it: it can neither renew nor release the new holder's lease.
    expect(await leases.renew(first!, 60_000)).toBe(false);
    await leases.release(first!);
    expect(await leases.acquire('held', 60_000)).toBeNull();
  });

  it('grants exactly one of many simultaneous acquires', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => leases.acquire('contended', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('renews a held lease past its old end, and frees the key on release', async () => {
    const lease = (await leases.acquire('renewed', 1000))!;
    expect(await leases.renew(lease, 60_000)).toBe(true);
    const { rows } = await db.$client.query<{ seconds: number }>(
      `select extract(epoch from expires_at - now()) as seconds from job_leases where key = 'renewed'`,
    );
    expect(Number(rows[0].seconds)).toBeGreaterThan(30);
    await leases.release(lease);
    expect(await leases.acquire('renewed', 1000)).not.toBeNull();
  });
});
