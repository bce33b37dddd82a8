import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createRedis } from '#core/platform/redis.js';
import { isDependencyDown } from '#core/platform/dependency-errors.js';
import { freePort } from '../../helpers/test-env.js';

/** The errors real clients raise when nothing answers, not hand-made ones. */
describe('isDependencyDown', () => {
  it('recognises a request-path Redis client with nobody listening', async () => {
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`, 'request');
    try {
      const error = await redis.get('x').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(isDependencyDown(error)).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it('recognises a Postgres pool with nobody listening', async () => {
    const pool = new pg.Pool({
      connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/none`,
      connectionTimeoutMillis: 500,
    });
    pool.on('error', () => {});
    try {
      const error = await pool.query('select 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDependencyDown(error)).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('leaves other failures alone', () => {
    expect(isDependencyDown(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDependencyDown(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
