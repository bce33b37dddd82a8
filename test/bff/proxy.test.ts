import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadBffConfig } from '../../bff/config.js';
import { buildBffApp } from '../../bff/app.js';
import { TEST_SECRETS, freePort } from '../helpers/test-env.js';

/**
 * The BFF against a recording upstream: what exactly reaches the server, and how the BFF reports
 * an upstream that is down or degraded.
 */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let upstream: http.Server;
let upstreamUrl: string;
let seen: Seen[] = [];
let upstreamHealth: { status: number; body: unknown } = { status: 200, body: { success: true, status: 'ok' } };

async function startBff(upstreamBase: string): Promise<{ app: FastifyInstance; url: string }> {
  const config = loadBffConfig({ ...TEST_SECRETS, BFF_UPSTREAM_URL: upstreamBase, LOG_LEVEL: 'silent' });
  const app = await buildBffApp(config, { logger: false, healthTimeoutMs: 1000 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

let bff: { app: FastifyInstance; url: string };

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/health') {
        res.writeHead(upstreamHealth.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(upstreamHealth.body));
        return;
      }
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json', etag: '"abc"' });
      res.end(JSON.stringify({ success: true }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  bff = await startBff(upstreamUrl);
});

afterAll(async () => {
  await bff.app.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('BFF proxy', () => {
  it('adds the public key headers and overwrites a client-supplied X-Forwarded-For', async () => {
    seen = [];
    const res = await fetch(`${bff.url}/share/p1/t1?x=1`, {
      headers: {
        apikey: 'forged',
        authorization: 'Bearer forged',
        'x-forwarded-for': '6.6.6.6',
        'x-share-password': 'pw',
        'if-none-match': '"abc"',
        origin: 'https://shop.example',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-api-version')).toBe('v3.16');
    expect(res.headers.get('etag')).toBe('"abc"');
    expect(seen).toHaveLength(1);
    const { url, headers } = seen[0];
    expect(url).toBe('/share/p1/t1?x=1');
    expect(headers.apikey).toBe(TEST_SECRETS.PUBLIC_ANON_KEY);
    expect(headers.authorization).toBe(`Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}`);
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-share-password']).toBe('pw');
    expect(headers['if-none-match']).toBe('"abc"');
    expect(headers.origin).toBe('https://shop.example');
  });

  it('passes a submit body through unchanged', async () => {
    seen = [];
    const body = JSON.stringify({ formData: { email: 'a@example.com' }, configurationSummary: 'Blue chair' });
    const res = await fetch(`${bff.url}/share/p1/t1/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/share/p1/t1/submit' });
    expect(JSON.parse(seen[0].body)).toEqual(JSON.parse(body));
    expect(seen[0].headers.apikey).toBe(TEST_SECRETS.PUBLIC_ANON_KEY);
  });

  it('passes a cart configuration through as a submit, and the cart reads with the key added', async () => {
    seen = [];
    const body = JSON.stringify({ options: { seat: 'walnut' }, quantity: 2, price: { total: 1 } });
    const res = await fetch(`${bff.url}/share/p1/t1/configurations`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': '6.6.6.6',
        'x-share-password': 'pw',
        origin: 'https://shop.example',
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/share/p1/t1/configurations', body });
    expect(seen[0].headers).toMatchObject({
      apikey: TEST_SECRETS.PUBLIC_ANON_KEY,
      authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}`,
      'x-forwarded-for': '127.0.0.1',
      'x-share-password': 'pw',
      origin: 'https://shop.example',
    });

    for (const path of ['/configurations/abcdefghijklmnopqrstuv', '/.well-known/jwks.json']) {
      seen = [];
      expect((await fetch(`${bff.url}${path}`, { headers: { 'x-forwarded-for': '6.6.6.6' } })).status).toBe(200);
      expect(seen[0]).toMatchObject({ method: 'GET', url: path });
      expect(seen[0].headers).toMatchObject({ apikey: TEST_SECRETS.PUBLIC_ANON_KEY, 'x-forwarded-for': '127.0.0.1' });
    }
  });

  it('proxies nothing outside /share', async () => {
    seen = [];
    const res = await fetch(`${bff.url}/projects`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error: 'not_found' });
    expect(seen).toHaveLength(0);
  });

  it('reports the parts the upstream names as failing', async () => {
    upstreamHealth = { status: 503, body: { success: false, error: 'unavailable', failing: ['redis'] } };
    try {
      const res = await fetch(`${bff.url}/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ success: false, error: 'unavailable', failing: ['redis'] });
    } finally {
      upstreamHealth = { status: 200, body: { success: true, status: 'ok' } };
    }
    expect((await fetch(`${bff.url}/health`)).status).toBe(200);
  });
});

describe('BFF with its upstream down', () => {
  it('answers 503 on /health and on proxied routes, with the API error body', async () => {
    const down = await startBff(`http://127.0.0.1:${await freePort()}`);
    try {
      const health = await fetch(`${down.url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ success: false, error: 'unavailable', failing: ['server'] });
      const share = await fetch(`${down.url}/share/p1/t1`);
      expect(share.status).toBe(503);
      expect(await share.json()).toMatchObject({ success: false, error: 'unavailable' });
    } finally {
      await down.app.close();
    }
  });

  it('never writes a share token to its request log', async () => {
    const config = loadBffConfig({ ...TEST_SECRETS, BFF_UPSTREAM_URL: upstreamUrl, LOG_LEVEL: 'info' });
    const lines: string[] = [];
    const app = await buildBffApp(config, {
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const token = 'c2hhcmUtdG9rZW4tbm90LWZvci1sb2dzLTAxMjM0NTY3';
      await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/share/p1/${token}/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const output = lines.join('');
      // Both the request line and the proxy's own 'fetching from remote server' line are masked.
      expect(output.match(/\/share\/p1\/\*\*\*\/submit/g)?.length).toBe(2);
      expect(output).not.toContain(token);
    } finally {
      await app.close();
    }
  });
});
