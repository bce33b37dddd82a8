import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { noticesHeard, startTestBff, type TestBff } from '../helpers/bff-app.js';
import { ownerShares, type Shared } from '../helpers/owner-shares.js';
import { readBudgetKey } from '#core/services/public-share/read-budget.js';
import { captureLogs } from '../helpers/log-lines.js';

/**
 * The cache hit answered below Fastify's routing (cache-hit-fast-path.ts) must be indistinguishable from the share
 * route's: status, body and every header, in order (Date and RateLimit-Reset's seconds tick).
 */
let server: TestServer;
let fast: TestBff;
let full: TestBff;
let shares: ReturnType<typeof ownerShares>;
let nextIp = 1;
/** The fast BFF's log: its fast path writes one "request completed" line with `cache: 'hit'` per answer. */
const logs = captureLogs();
const fastHits = () => logs.entries.filter((entry) => entry.cache === 'hit');
const visitor = () => `198.51.100.${nextIp++}`;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SHARE_READ: '100000/5m' });
  shares = ownerShares(server.url, await server.person('owner@bff-fast-path.test'));
  fast = await startTestBff(
    { ...server.env.env, BFF_UPSTREAM_URL: server.url },
    { logger: { level: 'info', stream: logs.stream } },
  );
  full = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url }, { cacheHitFastPath: false });
});

afterAll(async () => {
  await fast?.close();
  await full?.close();
  await server?.close();
});

interface Answer {
  status: number;
  body: string;
  /** Raw header pairs, names lower-cased, Date left out; RateLimit-Reset (it ticks) checked and set to "s". */
  headers: Array<[string, string]>;
}

function settled(name: string, value: string): [string, string] {
  if (name !== 'ratelimit-reset') return [name, value];
  expect(Number(value)).toBeGreaterThan(0);
  expect(Number(value)).toBeLessThanOrEqual(300);
  return [name, 's'];
}

/** A GET with node:http, so header order and case are seen as sent. */
function get(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const pairs: Array<[string, string]> = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            pairs.push(settled(res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]));
          resolve({ status: res.statusCode!, body, headers: pairs.filter(([name]) => name !== 'date') });
        });
      })
      .on('error', reject);
  });
}

async function share(settings: Record<string, unknown> = {}): Promise<Shared> {
  const target = await shares.share(settings);
  for (const on of [fast, full]) await noticesHeard(on, server.config.queuePrefix);
  return target;
}

/** The same request to both BFFs, after a miss that fills each cache and a first hit. */
async function bothHits(target: Shared, headers: Record<string, string>) {
  const path = `/share/${target.id}/${target.token}`;
  const answers: Answer[] = [];
  for (const on of [fast, full]) {
    const ip = visitor();
    const { 'if-none-match': _tag, ...firstHeaders } = headers;
    for (let i = 0; i < 2; i++)
      expect((await get(`${on.url}${path}`, { ...firstHeaders, 'x-forwarded-for': ip })).status).toBe(200);
    const before = fastHits().length;
    answers.push(await get(`${on.url}${path}`, { ...headers, 'x-forwarded-for': ip }));
    // The fast BFF answered the second read below Fastify; the other never does.
    expect(fastHits().length - before).toBe(on === fast ? 1 : 0);
  }
  return answers;
}

describe('BFF cache hits below Fastify', () => {
  it('answers a kept 200 exactly as the full path does, with an embed Origin', async () => {
    const target = await share();
    const [quick, slow] = await bothHits(target, { origin: 'https://shop.example.com' });
    expect(quick.status).toBe(200);
    expect(quick).toEqual(slow);
    expect(new Map(quick.headers).get('access-control-allow-origin')).toBe('https://shop.example.com');
    // Its log line names the request as Fastify's would, with the token masked.
    const line = fastHits().at(-1)!;
    expect(line).toMatchObject({
      msg: 'request completed',
      res: { statusCode: 200 },
      req: { method: 'GET', url: `/share/${target.id}/***` },
    });
    expect(JSON.stringify(logs.entries)).not.toContain(target.token);
  });

  it('answers a matching If-None-Match with the same 304, and a headless read with the same 200', async () => {
    const target = await share();
    const etag = (
      await get(`${fast.url}/share/${target.id}/${target.token}`, { 'x-forwarded-for': visitor() })
    ).headers.find(([name]) => name === 'etag')![1];
    const [quick304, slow304] = await bothHits(target, {
      'if-none-match': etag,
      referer: 'https://shop.example.com/product',
    });
    expect(quick304.status).toBe(304);
    expect(quick304).toEqual(slow304);
    const [quick, slow] = await bothHits(target, {});
    expect(quick.status).toBe(200);
    expect(quick).toEqual(slow);
  });

  it('serves a password-protected answer only with the right password, as the full path does', async () => {
    const target = await share({ requirePassword: true, password: 'open sesame' });
    const [quick, slow] = await bothHits(target, { 'x-share-password': 'open sesame' });
    expect(quick.status).toBe(200);
    expect(quick).toEqual(slow);
    const path = `/share/${target.id}/${target.token}`;
    for (const headers of [{}, { 'x-share-password': 'wrong' }] as Array<Record<string, string>>) {
      const answer = await get(`${fast.url}${path}`, { ...headers, 'x-forwarded-for': visitor() });
      expect(answer.status).toBe(401);
    }
  });

  it('drops an Origin naming the BFF itself (the share page), as the full path does', async () => {
    const target = await share({ domainRestrictions: ['shop.example.com'] });
    const answers: Answer[] = [];
    for (const on of [fast, full]) {
      const ip = visitor();
      const headers = { origin: on.url, 'x-forwarded-for': ip };
      const url = `${on.url}/share/${target.id}/${target.token}`;
      for (let i = 0; i < 2; i++) expect((await get(url, headers)).status).toBe(200);
      const before = fastHits().length;
      answers.push(await get(url, headers));
      expect(fastHits().length - before).toBe(on === fast ? 1 : 0);
    }
    expect(answers[0].status).toBe(200);
    expect(new Map(answers[0].headers).has('access-control-allow-origin')).toBe(false);
    // Both answers name their own BFF nowhere, so they match as they are.
    expect(answers[0]).toEqual(answers[1]);
  });

  it('keeps embeds apart on one URL: an allowed host is answered from memory, another gets the 403', async () => {
    const target = await share({ domainRestrictions: ['shop.example.com'] });
    const url = `${fast.url}/share/${target.id}/${target.token}`;
    /** A visitor whose budget this BFF holds (its reads could be answered below Fastify). */
    const warmVisitor = async () => {
      const ip = visitor();
      for (let i = 0; i < 2; i++) expect((await get(url, { 'x-forwarded-for': ip })).status).toBe(200);
      return ip;
    };
    const allowedByOrigin: Record<string, string> = {
      origin: 'https://shop.example.com',
      'x-forwarded-for': await warmVisitor(),
    };
    const allowedByReferer: Record<string, string> = {
      referer: 'https://shop.example.com/product',
      'x-forwarded-for': await warmVisitor(),
    };
    for (const allowed of [allowedByOrigin, allowedByReferer]) expect((await get(url, allowed)).status).toBe(200);
    for (let round = 0; round < 2; round++) {
      // The same URL from a host the share does not allow, by Origin and by Referer alone, from
      // visitors whose budget is held, after the allowed host's reads were remembered.
      const refused = await get(url, {
        origin: 'https://elsewhere.example.net',
        'x-forwarded-for': await warmVisitor(),
      });
      expect(refused.status).toBe(403);
      expect(new Map(refused.headers).get('access-control-allow-origin')).toBe('https://elsewhere.example.net');
      expect(
        (await get(url, { referer: 'https://elsewhere.example.net/page', 'x-forwarded-for': await warmVisitor() }))
          .status,
      ).toBe(403);
      for (const allowed of [allowedByOrigin, allowedByReferer]) {
        const before = fastHits().length;
        const again = await get(url, allowed);
        // Once its answer is kept and its budget held, the allowed host's read is answered below Fastify.
        if (round > 0) expect(fastHits().length - before).toBe(1);
        expect(again.status).toBe(200);
        expect(new Map(again.headers).get('access-control-allow-origin')).toBe(allowed.origin);
      }
    }
  });

  it('spends the read budget on every hit, counted once per read in Redis', async () => {
    const target = await share();
    const ip = visitor();
    const url = `${fast.url}/share/${target.id}/${target.token}`;
    const remaining: number[] = [];
    const before = fastHits().length;
    for (let i = 0; i < 40; i++) {
      const answer = await get(url, { 'x-forwarded-for': ip });
      expect(answer.status).toBe(200);
      remaining.push(Number(new Map(answer.headers).get('ratelimit-remaining')));
    }
    // One unit per read, whoever answered it: 99999, 99998, ...
    expect(remaining).toEqual(Array.from({ length: 40 }, (_, i) => 100000 - 1 - i));
    // The server counted the first read, the BFF each of the 39 hits.
    const counted = Number(await server.deps.redis.get(readBudgetKey(server.config.queuePrefix, ip)));
    expect(counted).toBe(40);
    // Every hit was answered below Fastify.
    expect(fastHits().length - before).toBeGreaterThanOrEqual(40 - 1 - 3);
  });
});
