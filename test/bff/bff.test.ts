import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadBffConfig } from '../../bff/config.js';
import { buildBffApp } from '../../bff/app.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The BFF in front of the real API, as in production: the API trusts the BFF's X-Forwarded-For. */
let server: TestServer;
let bff: FastifyInstance;
let bffUrl: string;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
  bff = await buildBffApp(loadBffConfig({ ...server.env.env, BFF_UPSTREAM_URL: server.url }), { logger: false });
  await bff.listen({ port: 0, host: '127.0.0.1' });
  bffUrl = `http://127.0.0.1:${(bff.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await bff?.close();
  await server?.close();
});

const unknownShare = '/share/00000000-0000-4000-8000-000000000000/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('BFF in front of the API', () => {
  it('answers /health from the API with the version header', async () => {
    const res = await fetch(`${bffUrl}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-api-version')).toBe('v3.16');
    expect(await res.json()).toEqual({ success: true, status: 'ok' });
  });

  it("answers unknown routes and malformed URLs with the API's error body", async () => {
    const missing = await fetch(`${bffUrl}/nope?token=secret`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-api-version')).toBe('v3.16');
    const body = await missing.json();
    expect(body).toMatchObject({ success: false, error: 'not_found' });
    expect(body.message).not.toContain('secret');
    const malformed = await fetch(`${bffUrl}/share/%zz/x`);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ success: false, error: 'invalid_request' });
  });

  it('adds the public key, so a browser without one reaches the share checks', async () => {
    // Straight to the API without the key: refused before anything is looked up.
    const direct = await fetch(`${server.url}${unknownShare}`);
    expect(direct.status).toBe(401);
    expect(await direct.json()).toMatchObject({ error: 'invalid_api_key' });

    // Through the BFF with no key from the client: the API got past the key check.
    const proxied = await fetch(`${bffUrl}${unknownShare}`);
    expect(proxied.status).toBe(404);
    expect(await proxied.json()).toMatchObject({ success: false, error: 'not_found' });
  });

  it("passes the API's refusal of a large submit through (404 with CORS), not a 503 or a reset", async () => {
    // One big screenshot to a share that does not exist: refused before the body is read.
    const body = JSON.stringify({
      formData: {},
      screenshots: [`data:image/png;base64,${Buffer.alloc(3 * 1024 * 1024, 7).toString('base64')}`],
    });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${bffUrl}${unknownShare}/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://shop.example.com' },
        body,
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
      expect(await res.json()).toMatchObject({ success: false, error: 'not_found' });
    }
  });

  it("answers a submit body past the API's limit with 413 itself, with CORS", async () => {
    const res = await fetch(`${bffUrl}${unknownShare}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://shop.example.com' },
      body: Buffer.alloc(37 * 1024 * 1024, 32),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(await res.json()).toMatchObject({ success: false, error: 'payload_too_large' });
  });

  it("answers a cart configuration past the API's limit with 413 itself, and passes a refusal through", async () => {
    const post = (body: string | Buffer) =>
      fetch(`${bffUrl}${unknownShare}/configurations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://shop.example.com' },
        body,
      });
    // Over the server's limit for this route (smaller than submit's): the BFF's own 413, never a 503.
    const tooLarge = await post(Buffer.alloc(9 * 1024 * 1024, 32));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(await tooLarge.json()).toMatchObject({ success: false, error: 'payload_too_large' });
    // Within it, to a share that does not exist: the API's 404, refused before the body is read.
    const screenshot = `data:image/png;base64,${Buffer.alloc(3 * 1024 * 1024, 7).toString('base64')}`;
    for (let i = 0; i < 3; i++) {
      const res = await post(JSON.stringify({ options: {}, screenshot }));
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ success: false, error: 'not_found' });
    }
  });
});
