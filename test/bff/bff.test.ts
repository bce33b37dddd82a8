import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../server/core/config.js';
import { buildBffApp } from '../../bff/app.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The BFF in front of the real API, as in production: the API trusts the BFF's X-Forwarded-For. */
let server: TestServer;
let bff: FastifyInstance;
let bffUrl: string;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
  bff = await buildBffApp(loadConfig({ ...server.env.env, BFF_UPSTREAM_URL: server.url }), { logger: false });
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
});
