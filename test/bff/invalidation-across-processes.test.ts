import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { freePort } from '../helpers/test-env.js';
import { startTsProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import { ownerShares, type Shared } from '../helpers/owner-shares.js';
import { readBudgetKey } from '#core/services/public-share/read-budget.js';

/**
 * Two servers and two BFFs on one Postgres and Redis (server A in this process, the rest processes of their own, each
 * BFF in front of a different server): a change through one server reaches both BFF caches within a second.
 */
let a: TestServer;
let shares: ReturnType<typeof ownerShares>;
const processes: ChildProcessHandle[] = [];
let bffUrls: string[] = [];
/** The BFF processes, their logs at info: each cache hit writes a line with `"cache":"hit"`. */
let bffProcesses: ChildProcessHandle[] = [];

async function waitUntilHealthy(url: string, child: ChildProcessHandle) {
  for (let i = 0; ; i++) {
    if (
      (await fetch(`${url}/health`).then(
        (res) => res.status,
        () => 0,
      )) === 200
    )
      return;
    if (i > 300) throw new Error(`${url} did not start:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startProcess(script: string, env: Record<string, string>, url: string) {
  const child = startTsProcess(script, { LOG_LEVEL: 'warn', ...env });
  processes.push(child);
  await waitUntilHealthy(url, child);
  return child;
}

beforeAll(async () => {
  a = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
  shares = ownerShares(a.url, await a.person('owner@bff-scale.test'));
  const bPort = await freePort();
  const bUrl = `http://127.0.0.1:${bPort}`;
  const [bff1, bff2] = [await freePort(), await freePort()];
  bffUrls = [`http://127.0.0.1:${bff1}`, `http://127.0.0.1:${bff2}`];
  // A long TTL: only the share-change notices can make these caches let go in time.
  const bffEnv = { ...a.env.env, BFF_CACHE_TTL_MS: '600000', LOG_LEVEL: 'info' };
  const started = await Promise.all([
    startProcess('server/main.ts', { ...a.env.env, PORT: String(bPort), PUBLIC_BASE_URL: bUrl }, bUrl),
    startProcess('bff/main.ts', { ...bffEnv, BFF_PORT: String(bff1), BFF_UPSTREAM_URL: a.url }, bffUrls[0]),
    startProcess('bff/main.ts', { ...bffEnv, BFF_PORT: String(bff2), BFF_UPSTREAM_URL: bUrl }, bffUrls[1]),
  ]);
  bffProcesses = started.slice(1);
  // Three processes start from source at once, beside the Chromium suites on the same two cores.
}, 180_000);

afterAll(async () => {
  await Promise.all(processes.map((child) => child.stop()));
  await a?.close();
});

const read = (bff: string, target: Shared) => fetch(`${bff}/share/${target.id}/${target.token}`);

/** Until every BFF answers `status` (polled every 50 ms); fails after 1 s. */
async function expectAllWithinOneSecond(target: Shared, status: number) {
  const started = Date.now();
  const pending = new Set(bffUrls);
  let last = 0;
  while (pending.size > 0) {
    for (const bff of [...pending]) {
      const got = (await read(bff, target)).status;
      if (got === status) pending.delete(bff);
      else last = got;
    }
    if (pending.size === 0) break;
    expect(Date.now() - started, `still ${last}, not ${status}, on ${[...pending].join(', ')}`).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const readCount = () => a.deps.redis.get(readBudgetKey(a.config.queuePrefix, '127.0.0.1')).then(Number);
const hitsOf = (bff: ChildProcessHandle) => bff.output().split('"cache":"hit"').length - 1;

const completedOf = (bff: ChildProcessHandle) => bff.output().split('request completed').length - 1;

/** One read through BFF `i`, once its log line is written: whether the BFF answered it from its cache. */
async function readLogged(i: number, target: Shared) {
  const [completed, hits] = [completedOf(bffProcesses[i]), hitsOf(bffProcesses[i])];
  expect((await read(bffUrls[i], target)).status).toBe(200);
  await expect.poll(() => completedOf(bffProcesses[i])).toBeGreaterThan(completed);
  return hitsOf(bffProcesses[i]) > hits;
}

/** Reads through each BFF until one is a hit, then two more: each counted once, both hits. */
async function warm(target: Shared) {
  // A read that overtakes the share's creation notices is rightly not kept, so the first hit waits on them.
  for (const i of bffUrls.keys()) await expect.poll(() => readLogged(i, target)).toBe(true);
  const before = await readCount();
  const hitsBefore = bffProcesses.map(hitsOf);
  for (const bff of bffUrls) for (let i = 0; i < 2; i++) expect((await read(bff, target)).status).toBe(200);
  expect(await readCount()).toBe(before + 4);
  await expect.poll(() => bffProcesses.map((bff, i) => hitsOf(bff) - hitsBefore[i])).toEqual([2, 2]);
}

describe('BFF caches across processes', () => {
  it('takes a disabled share offline on both BFFs within a second', async () => {
    const target = await shares.share();
    await warm(target);
    await shares.put(target.id, { isEnabled: false });
    await expectAllWithinOneSecond(target, 404);
  });

  it('stops a rotated token on both BFFs within a second', async () => {
    const target = await shares.share();
    await warm(target);
    await shares.call('POST', `/projects/${target.id}/share/regenerate`);
    await expectAllWithinOneSecond(target, 404);
  });

  it('asks for a password set after the answer was kept, on both BFFs within a second', async () => {
    const target = await shares.share();
    await warm(target);
    await shares.put(target.id, { isEnabled: true, requirePassword: true, password: 'correct horse' });
    await expectAllWithinOneSecond(target, 401);
  });
});
