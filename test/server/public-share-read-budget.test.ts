import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createRedis, waitForRedis } from '#core/platform/redis.js';
import { createReadBudget, readBudgetKey } from '#core/services/public-share/read-budget.js';

/** The public read budget (server/core/services/public-share/read-budget.ts) on a real Redis, prefix of its own. */
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'request');
const prefix = `cs-t-budget-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  expect(await waitForRedis(redis)).toBe(true);
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('read budget', () => {
  it('decides reads arriving together one by one, in order, and counts each once (refused ones too)', async () => {
    const budget = createReadBudget({ redis, prefix, rate: { max: 5, timeWindow: 60_000 } });
    const decisions = await Promise.all(Array.from({ length: 7 }, () => budget.spend('203.0.113.9')));
    expect(decisions.map((d) => (d.allowed ? d.remaining : 'refused'))).toEqual([4, 3, 2, 1, 0, 'refused', 'refused']);
    for (const decision of decisions) {
      expect(decision.limit).toBe(5);
      expect(decision.resetSeconds).toBeGreaterThan(0);
      expect(decision.resetSeconds).toBeLessThanOrEqual(60);
    }
    expect(Number(await redis.get(readBudgetKey(prefix, '203.0.113.9')))).toBe(7);
    // Another client has a budget of its own; an IPv6 client is keyed by its /64.
    expect(await budget.spend('203.0.113.10')).toMatchObject({ allowed: true, remaining: 4 });
    await budget.spend('2001:db8:1:2::1');
    expect(await budget.spend('2001:db8:1:2::ffff')).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('allows reads uncounted when Redis does not answer', async () => {
    const down = createRedis('redis://127.0.0.1:1', 'request');
    try {
      const budget = createReadBudget({ redis: down, prefix, rate: { max: 1, timeWindow: 60_000 } });
      for (let i = 0; i < 3; i++) expect(await budget.spend('203.0.113.11')).toEqual({ allowed: true, limit: 1 });
    } finally {
      down.disconnect();
    }
  });
});
