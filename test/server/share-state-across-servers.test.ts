import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { TEST_SECRETS, freePort } from '../helpers/test-env.js';
import { startTsProcess, type ChildProcessHandle } from '../helpers/child-process.js';

/**
 * Every server keeps share state in memory, so a change through server A (this process) must take effect at once on
 * server B (a process of its own): a rotated token or a disabled share never answers again.
 */
const PUBLIC = { apikey: TEST_SECRETS.PUBLIC_ANON_KEY, authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}` };

let a: TestServer;
let owner: TestPerson;
let b: ChildProcessHandle;
let bUrl: string;

async function owned(method: string, path: string, body?: unknown) {
  const res = await fetch(`${a.url}${path}`, {
    method,
    headers: { ...owner.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

const read = (base: string, projectId: string, token: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/share/${projectId}/${token}`, { headers: { ...PUBLIC, ...headers } });

async function sharedProject(name: string) {
  const { project } = await owned('POST', '/projects', {
    name,
    type: 'configurator',
    data: { models: [], sceneData: {} },
  });
  const { settings } = await owned('PUT', `/projects/${project.id}/share`, { isEnabled: true });
  return { projectId: project.id as string, token: settings.shareToken as string };
}

/** Reads on both servers until each has the share in memory (a second read is served from it). */
async function warm(projectId: string, token: string) {
  for (const base of [a.url, bUrl]) {
    for (let i = 0; i < 2; i++) expect((await read(base, projectId, token)).status).toBe(200);
  }
}

beforeAll(async () => {
  a = await startTestServer();
  owner = await a.person('owner@across.test');
  const port = await freePort();
  bUrl = `http://127.0.0.1:${port}`;
  b = startTsProcess('server/main.ts', { ...a.env.env, PORT: String(port), PUBLIC_BASE_URL: bUrl, LOG_LEVEL: 'warn' });
  for (let i = 0; ; i++) {
    const ok = await fetch(`${bUrl}/health`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) break;
    if (i > 300) throw new Error(`server B did not start:\n${b.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

afterAll(async () => {
  await b?.stop();
  await a?.close();
});

describe('share state kept in memory by several server processes', () => {
  it('stops the old token on every server as soon as it is rotated', async () => {
    const { projectId, token } = await sharedProject('Rotated');
    await warm(projectId, token);
    const { settings } = await owned('POST', `/projects/${projectId}/share/regenerate`);
    for (const base of [bUrl, a.url]) {
      expect((await read(base, projectId, token)).status).toBe(404);
      expect((await read(base, projectId, settings.shareToken)).status).toBe(200);
    }
  });

  it('takes a disabled share offline on every server at once', async () => {
    const { projectId, token } = await sharedProject('Disabled');
    await warm(projectId, token);
    await owned('PUT', `/projects/${projectId}/share`, { isEnabled: false });
    expect((await read(bUrl, projectId, token)).status).toBe(404);
    expect((await read(a.url, projectId, token)).status).toBe(404);
  });

  it('asks for the password on every server once one is set', async () => {
    const { projectId, token } = await sharedProject('Protected');
    await warm(projectId, token);
    await owned('PUT', `/projects/${projectId}/share`, {
      isEnabled: true,
      requirePassword: true,
      password: 'open sesame',
    });
    const res = await read(bUrl, projectId, token);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'password_required' });
  });

  it('answers 402 on every server once the owner is locked, and 200 again once unlocked', async () => {
    const { projectId, token } = await sharedProject('Billing');
    await warm(projectId, token);
    await a.deps.services.workspaces.change(owner.workspaceId, { billingStatus: 'locked' });
    expect((await read(bUrl, projectId, token)).status).toBe(402);
    await a.deps.services.workspaces.change(owner.workspaceId, { billingStatus: 'active' });
    expect((await read(bUrl, projectId, token)).status).toBe(200);
  });

  it('serves the new payload on every server after a project update, not a 304 for the old one', async () => {
    const { projectId, token } = await sharedProject('Before');
    await warm(projectId, token);
    const etag = (await read(bUrl, projectId, token)).headers.get('etag')!;
    expect((await read(bUrl, projectId, token, { 'if-none-match': etag })).status).toBe(304);
    await owned('PUT', `/projects/${projectId}`, {
      name: 'After',
      type: 'configurator',
      data: { models: [], sceneData: {} },
    });
    const res = await read(bUrl, projectId, token, { 'if-none-match': etag });
    expect(res.status).toBe(200);
    expect((await res.json()).project.name).toBe('After');
  });
});

describe('a public read of an unchanged share', () => {
  it('needs no Postgres query, for a 200 or a 304', async () => {
    const { projectId, token } = await sharedProject('Quiet');
    await warm(projectId, token);
    const etag = (await read(a.url, projectId, token)).headers.get('etag')!;
    const pool = a.deps.db.$client;
    let queries = 0;
    const { query, connect } = pool;
    pool.query = ((...args: Parameters<typeof query>) => {
      queries++;
      return query.apply(pool, args);
    }) as typeof query;
    pool.connect = ((...args: Parameters<typeof connect>) => {
      queries++;
      return connect.apply(pool, args);
    }) as typeof connect;
    try {
      for (let i = 0; i < 20; i++) {
        expect((await read(a.url, projectId, token)).status).toBe(200);
        expect((await read(a.url, projectId, token, { 'if-none-match': etag })).status).toBe(304);
      }
    } finally {
      pool.query = query;
      pool.connect = connect;
    }
    expect(queries).toBe(0);
  });
});
