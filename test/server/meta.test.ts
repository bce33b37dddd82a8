import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import errorHandler from '../../server/plugins/error-handler.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('meta routes', () => {
  it('reports health of Postgres and Redis', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: 'ok' });
    expect(res.headers.get('x-api-version')).toBe('v3.16');
  });

  it('answers the version and the changelog, newest first', async () => {
    expect(await (await fetch(`${server.url}/version`)).json()).toEqual({ success: true, version: 'v3.16', kind: 'minor' });
    const { entries } = await (await fetch(`${server.url}/changelog`)).json();
    expect(entries[0]).toMatchObject({ version: 'v3.16', kind: 'minor', date: null });
    expect(entries[0].summary).toContain('online 3D libraries');
    expect(entries.find((e: { version: string }) => e.version === 'v3.4').kind).toBe('patch');
    expect(entries.at(-1)).toMatchObject({ version: 'v3.0.0', kind: 'major' });
    expect(entries).toHaveLength(17);
  });

  it('serves the OpenAPI description and its page', async () => {
    const spec = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/projects', '/projects/{id}', '/health', '/version']));
    const page = await fetch(`${server.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('answers unknown routes with the error body and the version header', async () => {
    const res = await fetch(`${server.url}/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-api-version')).toBe('v3.16');
    expect(await res.json()).toMatchObject({ success: false, error: 'not_found' });
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const owner = await server.person('meta@example.com');
    const res = await fetch(`${server.url}/projects`, { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: '{"name":' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_request');
  });
});

describe('error handler', () => {
  it('never leaks internals in a 500', async () => {
    const app = Fastify({ logger: false });
    await app.register(errorHandler);
    app.get('/boom', async () => {
      throw new Error('relation "secret_table" does not exist at /srv/app.ts:12');
    });
    const res = await app.inject('/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, error: 'internal', message: 'Something went wrong on our side.' });
    await app.close();
  });
});
