import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import net from 'node:net';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { TEST_SECRETS, freePort } from '../helpers/test-env.js';
import { issueAccessToken } from '#core/platform/tokens.js';

let server: TestServer;
let owner: TestPerson;
beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('errors@example.com');
});
afterAll(() => server.close());

/**
 * Sends raw bytes without closing our side, as a client that keeps its connection would, and
 * reads the answer until the server ends it; `close` lets go of our side afterwards.
 */
function rawRequest(port: number, bytes: string): Promise<{ answer: string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve({ answer, close: () => socket.destroy() }));
    socket.on('error', reject);
  });
}

describe('errors raised before routing', () => {
  it('answers a malformed URL with the error body and the version header', async () => {
    const res = await fetch(`${server.url}/projects/%zz`, { headers: owner.headers });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-api-version')).toBe('v3.16');
    expect(await res.json()).toMatchObject({ success: false, error: 'invalid_request' });
  });

  it('treats a long share token like any wrong one, and an absurd one as a malformed URL with CORS', async () => {
    const projectId = '00000000-0000-4000-8000-000000000000';
    const long = 'a'.repeat(101);
    expect((await fetch(`${server.url}/share/${projectId}/${long}`)).status).toBe(401);
    const keyed = await fetch(`${server.url}/share/${projectId}/${long}`, {
      headers: { apikey: TEST_SECRETS.PUBLIC_ANON_KEY, authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}` },
    });
    expect(keyed.status).toBe(404);
    const absurd = await fetch(`${server.url}/share/${projectId}/${'a'.repeat(2000)}`, {
      headers: { origin: 'https://shop.example.com' },
    });
    expect(absurd.status).toBe(400);
    expect(absurd.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    const body = await absurd.json();
    expect(body).toMatchObject({ success: false, error: 'invalid_request' });
    expect(body.message).not.toContain('aaaa');
  });

  it('answers a broken request line with a JSON error and the version header', async () => {
    const open = () =>
      new Promise<number>((resolve, reject) =>
        server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    const before = await open();
    const { answer, close } = await rawRequest(
      Number(new URL(server.url).port),
      'GET /health HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.toLowerCase()).toContain('x-api-version: v3.16');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      success: false,
      error: 'invalid_request',
    });
    // And the server lets go of the connection (other tests' keep-alive connections may remain).
    try {
      await vi.waitFor(async () => expect(await open()).toBeLessThanOrEqual(before), { timeout: 5000 });
    } finally {
      close();
    }
  });
});

describe('credentials', () => {
  it('refuses an X-API-Key on the online library paths with 401 session_required, bearer or not', async () => {
    const created = await fetch(`${server.url}/workspace/api-keys`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci' }),
    });
    const { key } = await created.json();
    for (const path of [
      '/external-assets/search?q=chair',
      '/external-assets/imports',
      '/external-providers/library_b/connection',
      '/%65xternal-assets/search',
    ]) {
      for (const headers of [{ 'x-api-key': key }, { 'x-api-key': key, ...owner.headers }]) {
        const res = await fetch(`${server.url}${path}`, { headers });
        expect(res.status, path).toBe(401);
        expect((await res.json()).error).toBe('session_required');
      }
    }
  });

  it("answers 403 for an X-Workspace-Id that is not one of the person's workspaces, malformed or not", async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      const res = await fetch(`${server.url}/projects`, { headers: { ...owner.headers, 'x-workspace-id': id } });
      expect(res.status, id).toBe(403);
      expect((await res.json()).error).toBe('forbidden');
    }
  });
});

/** POST /projects as the owner, with any body. */
const createProject = (body: unknown) =>
  fetch(`${server.url}/projects`, {
    method: 'POST',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('validation messages', () => {
  it('names the allowed values of a field once', async () => {
    const res = await createProject({ name: 'x', data: { models: [], renderQuality: 'ultra' } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.details).toEqual([
      { field: 'body.data.renderQuality', message: 'must be one of "optimised", "low", "high"' },
    ]);
    expect(body.message).toBe('body.data.renderQuality must be one of "optimised", "low", "high"');
  });

  it('names every type a field may have', async () => {
    const res = await createProject({ name: 'x', data: { models: [{ id: 'a', fileName: 'a.glb', position: 'x' }] } });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([
      { field: 'body.data.models.0.position', message: 'must be array or object' },
    ]);
  });

  it('refuses two models with one id, naming the second', async () => {
    const res = await createProject({
      name: 'x',
      data: {
        models: [
          { id: 'a', fileName: 'a.glb' },
          { id: 'b', fileName: 'b.glb' },
          { id: 'a', fileName: 'c.glb' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([
      { field: 'body.data.models.2.id', message: 'repeats the id "a" of an earlier model' },
    ]);
  });

  it("ignores unknown keys of a project's data instead of storing them", async () => {
    const res = await createProject({
      name: 'x',
      data: { models: [], junk: { a: 1 }, camera: { position: [1, 2, 3], target: [0, 0, 0] } },
    });
    expect(res.status).toBe(201);
    const { project } = await res.json();
    const read = await (await fetch(`${server.url}/projects/${project.id}`, { headers: owner.headers })).json();
    expect(read.project.data).not.toHaveProperty('junk');
    expect(read.project.data.camera).toEqual({ position: [1, 2, 3], target: [0, 0, 0] });
  });
});

describe('a dependency that is down', () => {
  it('answers 503 unavailable with Retry-After, not 500, when Postgres does not answer', async () => {
    const closedPort = await freePort();
    const broken = await startTestServer({ DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/none` });
    try {
      const token = await issueAccessToken(broken.config.auth, 'test|down@example.com', 'down@example.com');
      const res = await fetch(`${broken.url}/projects`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toMatchObject({ success: false, error: 'unavailable' });
      const health = await fetch(`${broken.url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ failing: ['postgres'] });
    } finally {
      await broken.close();
    }
  });
});
