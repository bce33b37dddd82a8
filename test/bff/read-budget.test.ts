import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { noticesHeard, startTestBff, type TestBff } from '../helpers/bff-app.js';
import { ownerShares, type Shared } from '../helpers/owner-shares.js';
import { readBudgetKey } from '#core/services/public-share/read-budget.js';

/**
 * One read budget per client whether the BFF's cache or the server answers (docs/bff.md, Read budget). Limit 5 per
 * minute; each test plays a visitor of its own through X-Forwarded-For.
 */
let server: TestServer;
let bff: TestBff;
let shares: ReturnType<typeof ownerShares>;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SHARE_READ: '5/1m' });
  shares = ownerShares(server.url, await server.person('owner@bff-budget.test'));
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url });
});

afterAll(async () => {
  await bff?.close();
  await server?.close();
});

const read = (target: Shared, ip: string, origin: string) =>
  fetch(`${bff.url}/share/${target.id}/${target.token}`, { headers: { 'x-forwarded-for': ip, origin } });
const counter = (ip: string) => server.deps.redis.get(readBudgetKey(server.config.queuePrefix, ip)).then(Number);

describe('BFF read budget', () => {
  it("counts on the very key the server's budget writes", async () => {
    const target = await shares.share();
    await noticesHeard(bff, server.config.queuePrefix);
    const ip = '203.0.113.1';
    expect((await read(target, ip, 'https://a.example.com')).status).toBe(200);
    expect(await counter(ip)).toBe(1);
  });

  it('counts cache hits and forwarded reads in one budget: the sixth of a mix is 429, from either', async () => {
    const target = await shares.share();
    await noticesHeard(bff, server.config.queuePrefix);
    const ip = '203.0.113.2';
    // Miss (server), hit (BFF), miss (another embed host: server), hit, hit.
    const origins = [
      'https://a.example.com',
      'https://a.example.com',
      'https://b.example.com',
      'https://b.example.com',
      'https://a.example.com',
    ];
    for (const origin of origins) expect((await read(target, ip, origin)).status, origin).toBe(200);
    expect(await counter(ip)).toBe(5);

    const hit = await read(target, ip, 'https://a.example.com');
    expect(hit.status).toBe(429);
    expect(Number(hit.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(hit.headers.get('access-control-allow-origin')).toBe('https://a.example.com');
    expect(hit.headers.get('x-api-version')).toBe('v3.16');
    expect(hit.headers.get('ratelimit-remaining')).toBe('0');
    const body = await hit.json();
    expect(body).toMatchObject({ success: false, error: 'rate_limited' });
    expect(body.retryAfter).toBe(Number(hit.headers.get('retry-after')));

    const miss = await read(target, ip, 'https://c.example.com');
    expect(miss.status).toBe(429);
    expect(Object.keys(await miss.json()).sort()).toEqual(Object.keys(body).sort());
  });

  it('counts each read once in Redis, whether the BFF or the server answers it', async () => {
    const target = await shares.share();
    await noticesHeard(bff, server.config.queuePrefix);
    const ip = '203.0.113.3';
    expect((await read(target, ip, 'https://a.example.com')).status).toBe(200);
    expect((await read(target, ip, 'https://a.example.com')).status).toBe(200);
    // One read counted by the server, one by the BFF's cache hit.
    expect(await counter(ip)).toBe(2);
    expect((await read(target, ip, 'https://a.example.com')).status).toBe(200);
    expect(await counter(ip)).toBe(3);
    expect((await read(target, ip, 'https://d.example.com')).status).toBe(200);
    expect(await counter(ip)).toBe(4);
  });
});
