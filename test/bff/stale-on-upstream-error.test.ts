import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { noticesHeard, startTestBff, type TestBff } from '../helpers/bff-app.js';
import { ownerShares, type Shared } from '../helpers/owner-shares.js';
import { readBudgetKey } from '#core/services/public-share/read-budget.js';
import { STALE_FOR_MS } from '../../bff/services/read-cache.js';

/**
 * The BFF in front of a server that fails (issue 23): a kept read past its freshness is answered stale when the
 * server is unreachable or answers 5xx, and kept for when it is back; a read it never kept gets 503 with Retry-After.
 */
let server: TestServer;
let bff: TestBff;
let gate: http.Server;
/** How the gate between the BFF and the server behaves: pass, answer 503 (after counting the read), or cut. */
let mode: 'pass' | '503' | '503 counted' | 'cut' = 'pass';
let shares: ReturnType<typeof ownerShares>;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_SHARE_READ: '100000/5m' });
  shares = ownerShares(server.url, await server.person('owner@bff-stale.test'));
  const target = new URL(server.url);
  gate = http.createServer((req, res) => {
    if (mode === 'cut') return req.socket.destroy();
    if (mode === '503' || mode === '503 counted') {
      const counted = mode === '503 counted' ? { 'ratelimit-limit': '100000', 'ratelimit-remaining': '99990' } : {};
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5', ...counted });
      return res.end('{"success":false,"error":"unavailable","message":"down"}');
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  const gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
  // Answers are current for 100 ms only: every later read asks the server.
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: gateUrl, BFF_CACHE_TTL_MS: '100' });
});

afterAll(async () => {
  await bff?.close();
  await new Promise((resolve) => gate?.close(resolve));
  await server?.close();
});

async function share(): Promise<Shared> {
  const target = await shares.share();
  await noticesHeard(bff, server.config.queuePrefix);
  return target;
}

const read = (target: Shared, headers: Record<string, string> = {}) =>
  fetch(`${bff.url}/share/${target.id}/${target.token}`, { headers, signal: AbortSignal.timeout(10_000) });

/** Past the kept answer's freshness: the next read asks the server. */
const stale = () => new Promise((r) => setTimeout(r, 200));

it('answers a kept read stale, 200 or 304, while the server is unreachable or failing', async () => {
  const target = await share();
  mode = 'pass';
  const first = await read(target);
  expect(first.status).toBe(200);
  const body = await first.text();
  const etag = first.headers.get('etag')!;
  try {
    for (const failing of ['cut', '503'] as const) {
      mode = failing;
      await stale();
      const again = await read(target);
      expect(again.status, failing).toBe(200);
      expect(await again.text()).toBe(body);
      expect(again.headers.get('etag')).toBe(etag);
      expect((await read(target, { 'if-none-match': etag })).status, failing).toBe(304);
    }
  } finally {
    mode = 'pass';
  }
  await stale();
  expect((await read(target, { 'if-none-match': etag })).status).toBe(304);
});

it('answers 503 unavailable with Retry-After for a read it never kept', async () => {
  const target = await share();
  mode = 'cut';
  try {
    const refused = await read(target);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ success: false, error: 'unavailable' });
  } finally {
    mode = 'pass';
  }
  expect((await read(target)).status).toBe(200);
});

const readsCounted = () => server.deps.redis.get(readBudgetKey(server.config.queuePrefix, '127.0.0.1')).then(Number);

it("counts a stale answer's read once: not again when the failing server already counted it", async () => {
  const target = await share();
  mode = 'pass';
  expect((await read(target)).status).toBe(200);
  try {
    mode = '503';
    await stale();
    let before = await readsCounted();
    const served = await read(target);
    expect(served.status).toBe(200);
    expect(served.headers.get('retry-after')).toBeNull();
    expect(await readsCounted()).toBe(before + 1);
    mode = '503 counted';
    before = await readsCounted();
    expect((await read(target)).status).toBe(200);
    expect(await readsCounted()).toBe(before);
  } finally {
    mode = 'pass';
  }
});

it('stops answering stale once the kept answer is older than the bound', async () => {
  const target = await share();
  mode = 'pass';
  expect((await read(target)).status).toBe(200);
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + STALE_FOR_MS });
  try {
    mode = 'cut';
    const refused = await read(target);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ success: false, error: 'unavailable' });
  } finally {
    vi.useRealTimers();
    mode = 'pass';
  }
});
