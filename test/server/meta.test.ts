import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import errorHandler from '#core/http/error-handler.js';
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
    expect(await (await fetch(`${server.url}/version`)).json()).toEqual({
      success: true,
      version: 'v3.16',
      kind: 'minor',
    });
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
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/projects',
        '/projects/{id}',
        '/health',
        '/version',
        '/files/{key}',
        '/share/{projectId}/{token}/submit',
      ]),
    );
    // Also described where schemas cannot say it: the upload's multipart body, file responses, public headers.
    expect(spec.paths['/assets'].post.requestBody.content['multipart/form-data'].schema.required).toEqual(['file']);
    expect(Object.keys(spec.paths['/files/{key}'].get.responses)).toEqual(
      expect.arrayContaining(['200', '206', '304', '403', '404', '416']),
    );
    const submitHeaders = spec.paths['/share/{projectId}/{token}/submit'].post.parameters
      .filter((p: { in: string }) => p.in === 'header')
      .map((p: { name: string }) => p.name);
    expect(submitHeaders).toEqual(expect.arrayContaining(['x-share-password', 'idempotency-key']));
    expect(spec.paths['/workspace/api-keys'].post.security).toEqual([{ bearer: [] }]);
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

  it('answers a text/plain body with 415 unsupported_media_type', async () => {
    const owner = await server.person('text@example.com');
    const res = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'text/plain' },
      body: '{"name":"x"}',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ success: false, error: 'unsupported_media_type' });
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const owner = await server.person('meta@example.com');
    const res = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_request');
  });
});

describe('JSON bodies from strangers', () => {
  it('refuses NUL characters, hostile nesting and answers bodiless JSON POSTs', async () => {
    const owner = await server.person('json@example.com');
    const post = (path: string, body: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        body,
      });

    const nul = await post('/projects', JSON.stringify({ name: 'a\u0000b', type: 'configurator' }));
    expect(nul.status).toBe(400);
    expect((await nul.json()).error).toBe('invalid_request');

    // Built as text: serialising it would overflow this test's own stack.
    const deep = '{"inner":'.repeat(5000) + '{}' + '}'.repeat(5000);
    const nested = await post(
      '/projects',
      `{"name":"Deep","type":"configurator","data":{"models":[],"sceneData":{"projectSettings":${deep}}}}`,
    );
    expect(nested.status).toBe(400);
    expect((await nested.json()).message).toContain('nested deeper');

    // 90 levels is a legitimate scene and is kept.
    let fine: unknown = { leaf: true };
    for (let i = 0; i < 90; i++) fine = { inner: fine };
    expect(
      (
        await post(
          '/projects',
          JSON.stringify({
            name: 'Fine',
            type: 'configurator',
            data: { models: [], sceneData: { projectSettings: fine } },
          }),
        )
      ).status,
    ).toBe(201);

    const project = await (await post('/projects', JSON.stringify({ name: 'Enable me', type: 'configurator' }))).json();
    const enable = await post(`/projects/${project.project.id}/share/enable`, '');
    expect(enable.status).toBe(200);
    expect((await enable.json()).settings.isEnabled).toBe(true);
  });

  it('holds list limits to 1-100', async () => {
    const owner = await server.person('limits@example.com');
    for (const limit of ['0', '101', 'abc', '-1']) {
      const res = await fetch(`${server.url}/projects?limit=${limit}`, { headers: owner.headers });
      expect(res.status).toBe(400);
    }
    expect((await fetch(`${server.url}/projects?limit=100`, { headers: owner.headers })).status).toBe(200);
  });
});

describe('access tokens', () => {
  it('refuses a correctly signed token without an expiry', async () => {
    const { SignJWT } = await import('jose');
    const owner = await server.person('noexp@example.com');
    const [{ subject }] = (
      await server.deps.db.$client.query('select subject from people where id = $1', [owner.personId])
    ).rows;
    const forever = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setIssuedAt()
      .sign(new TextEncoder().encode(server.config.auth.jwtSecret!));
    expect((await fetch(`${server.url}/projects`, { headers: { authorization: `Bearer ${forever}` } })).status).toBe(
      401,
    );
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
