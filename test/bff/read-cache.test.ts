import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { noticesHeard, startTestBff, type TestBff } from '../helpers/bff-app.js';
import { ownerShares, type Shared } from '../helpers/owner-shares.js';

/**
 * The BFF's read cache in front of the real API: what it answers itself, what it asks the server, and that a
 * password or an embed host the server would refuse never gets a kept answer.
 */
let server: TestServer;
let bff: TestBff;
/** The same, with answers current for 200 ms only: revalidation. */
let shortBff: TestBff;
let shares: ReturnType<typeof ownerShares>;
let upstream: Array<{ url: string; headers: IncomingHttpHeaders; status?: number }> = [];
let nextIp = 1;
/** A visitor of its own, so budgets of one test do not reach another. */
const visitor = () => ({ 'x-forwarded-for': `198.51.100.${nextIp++}` });

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SHARE_READ: '100000/5m' });
  shares = ownerShares(server.url, await server.person('owner@bff-cache.test'));
  // Every request that reaches the server, with its status once answered.
  server.app.server.on('request', (req, res) => {
    if (!req.url?.startsWith('/share/')) return;
    const seen: (typeof upstream)[number] = { url: req.url, headers: req.headers };
    upstream.push(seen);
    res.on('finish', () => (seen.status = res.statusCode));
  });
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url });
  shortBff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url, BFF_CACHE_TTL_MS: '200' });
});

afterAll(async () => {
  await bff?.close();
  await shortBff?.close();
  await server?.close();
});

beforeEach(() => {
  upstream = [];
});

/** A new share, once both BFFs heard the notices its creation published. */
async function share(settings: Record<string, unknown> = {}): Promise<Shared> {
  const target = await shares.share(settings);
  for (const on of [bff, shortBff]) await noticesHeard(on, server.config.queuePrefix);
  return target;
}

const read = (on: TestBff, target: Shared, headers: Record<string, string> = {}) =>
  fetch(`${on.url}/share/${target.id}/${target.token}`, { headers });

describe('BFF cache of public reads', () => {
  it("serves a kept answer without asking the server, with the server's headers and CORS", async () => {
    const target = await share();
    const who = { ...visitor(), origin: 'https://shop.example.com' };
    const first = await read(bff, target, who);
    expect(first.status).toBe(200);
    const body = await first.text();
    expect(upstream).toHaveLength(1);

    const again = await read(bff, target, who);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(body);
    expect(upstream).toHaveLength(1);
    for (const name of ['etag', 'content-type', 'cache-control', 'content-security-policy', 'vary'])
      expect(again.headers.get(name), name).toBe(first.headers.get(name));
    expect(again.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(again.headers.get('access-control-expose-headers')).toBe('ETag, Retry-After');
    expect(again.headers.get('x-api-version')).toBe('v3.16');
    expect(again.headers.get('ratelimit-limit')).toBe('100000');
  });

  it('answers a matching If-None-Match with 304 itself, with CORS', async () => {
    const target = await share();
    const who = { ...visitor(), origin: 'https://shop.example.com' };
    const etag = (await read(bff, target, who)).headers.get('etag')!;
    upstream = [];
    const res = await read(bff, target, { ...who, 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(res.headers.get('x-api-version')).toBe('v3.16');
    expect(upstream).toHaveLength(0);
    // Another tag: the kept body.
    expect((await read(bff, target, { ...who, 'if-none-match': '"other"' })).status).toBe(200);
    expect(upstream).toHaveLength(0);
  });

  it('keeps a 200 even when the first visitor already held it, and answers that visitor 304', async () => {
    const target = await share();
    const etag = (await read(bff, target, visitor())).headers.get('etag')!;
    const other = { id: target.id, token: target.token };
    const fresh = await read(bff, other, { ...visitor(), origin: 'https://new.example.com', 'if-none-match': etag });
    expect(fresh.status).toBe(304);
    // The server was asked without the visitor's tag, so the answer came back whole and was kept.
    expect(upstream.at(-1)!.headers['if-none-match']).toBeUndefined();
    expect((await read(bff, other, { ...visitor(), origin: 'https://new.example.com' })).status).toBe(200);
    expect(upstream).toHaveLength(2);
  });

  it("revalidates an answer past its TTL with the kept ETag, and serves it on the server's 304", async () => {
    const target = await share();
    const who = visitor();
    const first = await read(shortBff, target, who);
    const body = await first.text();
    await new Promise((r) => setTimeout(r, 300));
    const again = await read(shortBff, target, who);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(body);
    expect(upstream).toHaveLength(2);
    expect(upstream[1].headers['if-none-match']).toBe(first.headers.get('etag'));
    expect(upstream[1].status).toBe(304);
    // Confirmed again: current for another TTL.
    expect((await read(shortBff, target, who)).status).toBe(200);
    expect(upstream).toHaveLength(2);
  });

  it('serves a password-protected answer only to requests with the right password', async () => {
    const target = await share({ requirePassword: true, password: 'correct horse' });
    const who = visitor();
    const right = await read(bff, target, { ...who, 'x-share-password': 'correct horse' });
    expect(right.status).toBe(200);
    expect(right.headers.get('cache-control')).toBe('private, no-cache');
    const body = await right.text();
    expect((await read(bff, target, { ...who, 'x-share-password': 'correct horse' })).status).toBe(200);
    expect(upstream).toHaveLength(1);

    const missing = await read(bff, target, who);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: 'password_required' });
    const wrong = await read(bff, target, { ...who, 'x-share-password': 'battery staple' });
    expect(wrong.status).toBe(401);
    const wrongBody = await wrong.text();
    expect(wrongBody).not.toBe(body);
    expect(JSON.parse(wrongBody)).toMatchObject({ error: 'invalid_password' });
    expect(upstream.map((seen) => seen.status)).toEqual([200, 401, 401]);
  });

  it("keeps answers apart per embed host: an allowed origin's answer never reaches a refused one", async () => {
    const target = await share({ domainRestrictions: ['shop.example.com'] });
    const who = visitor();
    for (let i = 0; i < 2; i++)
      expect((await read(bff, target, { ...who, origin: 'https://shop.example.com' })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const refused = await read(bff, target, { ...who, origin: 'https://elsewhere.example.org' });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example.org');
    }
    // A Referer names the host when there is no Origin.
    expect((await read(bff, target, { ...who, referer: 'https://elsewhere.example.org/page' })).status).toBe(403);
    expect(upstream.map((seen) => seen.status)).toEqual([200, 403, 403, 403]);
  });

  it('answers the share page (an Origin naming the BFF itself) from memory as a headless read', async () => {
    const target = await share({ domainRestrictions: ['shop.example.com'] });
    const who = { ...visitor(), origin: bff.url };
    for (let i = 0; i < 3; i++) {
      const res = await read(bff, target, who);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(upstream).toHaveLength(1);
  });

  it("drops a project's answers as soon as its share changes", async () => {
    const target = await share();
    const who = visitor();
    expect((await read(bff, target, who)).status).toBe(200);
    await shares.put(target.id, { isEnabled: false });
    const deadline = Date.now() + 1000;
    let status = 0;
    while (Date.now() < deadline && (status = (await read(bff, target, who)).status) !== 404)
      await new Promise((r) => setTimeout(r, 20));
    expect(status).toBe(404);
  });

  it('passes a read with a query string or a malformed id through without keeping it', async () => {
    const target = await share();
    const who = visitor();
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${bff.url}/share/${target.id}/${target.token}?v=1`, { headers: who })).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${bff.url}/share/not-a-uuid/${target.token}`, { headers: who })).status).toBe(404);
    expect(upstream).toHaveLength(4);
  });
});
