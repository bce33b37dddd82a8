import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';

/** Revisions of owner projects (docs/api.md, "Revisions and preview"): ETags, If-Match, the kept history, restore. */
let server: TestServer;
let owner: TestPerson;
let viewer: TestPerson;
let stranger: TestPerson;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('owner@revisions.test');
  viewer = await server.member(owner.workspaceId, 'viewer@revisions.test', 'viewer');
  stranger = await server.person('stranger@revisions.test');
});
afterAll(() => server?.close());

const sceneOf = (color: string) => ({
  models: [{ id: 'm1', fileName: 'chair.glb', position: [0, 0, 0] }],
  sceneData: { projectSettings: { brandColor: color } },
});

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = owner.headers) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function createProject(color = '#000000'): Promise<string> {
  const res = await call('POST', '/projects', { name: 'Chair', type: 'configurator', data: sceneOf(color) });
  expect(res.status).toBe(201);
  return (await res.json()).project.id;
}

const put = (id: string, color: string, ifMatch?: string, name = 'Chair') =>
  call(
    'PUT',
    `/projects/${id}`,
    { name, type: 'configurator', data: sceneOf(color) },
    {
      ...owner.headers,
      ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
    },
  );

async function current(id: string) {
  return (await (await call('GET', `/projects/${id}`)).json()).project;
}

async function eventCount(id: string): Promise<number> {
  const { rows } = await server.deps.db.$client.query(
    'select count(*)::int as n from project_events where project_id = $1',
    [id],
  );
  return rows[0].n;
}

describe('ETag and If-Match', () => {
  it('sends the revision as the ETag of GET, POST and PUT', async () => {
    const created = await call('POST', '/projects', { name: 'Chair', type: 'configurator', data: sceneOf('#111111') });
    expect(created.headers.get('etag')).toBe('"r1"');
    const id = (await created.json()).project.id;
    expect((await call('GET', `/projects/${id}`)).headers.get('etag')).toBe('"r1"');
    const replaced = await put(id, '#222222');
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('etag')).toBe('"r2"');
    expect((await call('GET', `/projects/${id}`)).headers.get('etag')).toBe('"r2"');
  });

  it('saves when If-Match names the current revision, in any accepted form', async () => {
    const id = await createProject();
    expect((await put(id, '#010101', '"r1"')).status).toBe(200);
    expect((await put(id, '#020202', 'W/"r2"')).status).toBe(200);
    expect((await put(id, '#030303', '"r1", "r3"')).status).toBe(200);
    expect((await put(id, '#040404', '*')).status).toBe(200);
    expect((await current(id)).revision).toBe(5);
  });

  it('refuses a save based on another revision with 412 revision_conflict, writing nothing', async () => {
    const id = await createProject('#aaaaaa');
    await put(id, '#bbbbbb');
    const events = await eventCount(id);
    const res = await put(id, '#cccccc', '"r1"', 'Stale');
    expect(res.status).toBe(412);
    expect(res.headers.get('etag')).toBe('"r2"');
    expect(await res.json()).toMatchObject({ success: false, error: 'revision_conflict', currentRevision: 2 });
    const after = await current(id);
    expect(after).toMatchObject({ name: 'Chair', revision: 2 });
    expect(after.data.sceneData.projectSettings.brandColor).toBe('#bbbbbb');
    expect(await eventCount(id)).toBe(events);
    const { revisions } = await (await call('GET', `/projects/${id}/revisions`)).json();
    expect(revisions.map((r: { revision: number }) => r.revision)).toEqual([2, 1]);
  });

  it('takes a well-formed tag of no revision as a mismatch, a malformed header as a 400 naming the rule', async () => {
    const id = await createProject();
    expect((await put(id, '#010101', '"something-else"')).status).toBe(412);
    expect((await put(id, '#010101', '"r99999999999"')).status).toBe(412);
    const malformed = await put(id, '#010101', 'r1');
    expect(malformed.status).toBe(400);
    const body = await malformed.json();
    expect(body).toMatchObject({ error: 'invalid_request' });
    expect(body.message).toContain('If-Match');
    expect((await current(id)).revision).toBe(1);
  });

  it('lets the last write win without If-Match', async () => {
    const id = await createProject();
    await put(id, '#010101');
    expect((await put(id, '#020202')).status).toBe(200);
    expect((await current(id)).data.sceneData.projectSettings.brandColor).toBe('#020202');
  });

  it('gives exactly one 200 and one 412 to two concurrent saves with the same If-Match', async () => {
    const id = await createProject();
    const answers = await Promise.all([put(id, '#a00000', '"r1"'), put(id, '#00a000', '"r1"')]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
    const winner = answers.find((res) => res.status === 200)!;
    const winnerColor = (await winner.json()).project.data.sceneData.projectSettings.brandColor;
    const after = await current(id);
    expect(after.revision).toBe(2);
    expect(after.data.sceneData.projectSettings.brandColor).toBe(winnerColor);
  });

  it('answers 404 for another workspace’s project, If-Match or not', async () => {
    const id = await createProject();
    const res = await call(
      'PUT',
      `/projects/${id}`,
      { name: 'X', type: 'configurator', data: sceneOf('#000000') },
      { ...stranger.headers, 'if-match': '"r1"' },
    );
    expect(res.status).toBe(404);
  });
});

describe('kept revisions', () => {
  it('lists revisions newest first with who saved them, and reads one', async () => {
    const id = await createProject('#100000');
    await put(id, '#200000', undefined, 'Chair v2');
    const list = await call('GET', `/projects/${id}/revisions`);
    expect(list.status).toBe(200);
    const { revisions } = await list.json();
    expect(revisions).toEqual([
      { revision: 2, savedAt: expect.any(String), savedBy: { id: owner.personId, email: 'owner@revisions.test' } },
      { revision: 1, savedAt: expect.any(String), savedBy: { id: owner.personId, email: 'owner@revisions.test' } },
    ]);
    const one = await call('GET', `/projects/${id}/revisions/1`);
    expect(one.status).toBe(200);
    const body = await one.json();
    expect(body).toMatchObject({ success: true, revision: 1, name: 'Chair', type: 'configurator' });
    expect(body.data.sceneData.projectSettings.brandColor).toBe('#100000');
    expect(body.data.models[0].position).toEqual([0, 0, 0]);
    expect(new Date(body.savedAt).toISOString()).toBe(body.savedAt);
  });

  it("records an API key's creator as who saved", async () => {
    const { key } = await (await call('POST', '/workspace/api-keys', { name: 'ci' })).json();
    const res = await call(
      'POST',
      '/projects',
      { name: 'By key', type: 'configurator', data: sceneOf('#000000') },
      { 'x-api-key': key },
    );
    expect(res.status).toBe(201);
    const id = (await res.json()).project.id;
    const { revisions } = await (await call('GET', `/projects/${id}/revisions`)).json();
    expect(revisions[0].savedBy).toEqual({ id: owner.personId, email: 'owner@revisions.test' });
  });

  it('keeps the newest 50 revisions: an older one is 404', async () => {
    const id = await createProject('#000000');
    for (let i = 1; i <= 51; i++) expect((await put(id, `#${String(i).padStart(6, '0')}`)).status).toBe(200);
    const { revisions } = await (await call('GET', `/projects/${id}/revisions`)).json();
    expect(revisions).toHaveLength(50);
    expect(revisions[0].revision).toBe(52);
    expect(revisions.at(-1).revision).toBe(3);
    expect((await call('GET', `/projects/${id}/revisions/2`)).status).toBe(404);
    expect((await call('GET', `/projects/${id}/revisions/1`)).status).toBe(404);
    expect((await call('POST', `/projects/${id}/revisions/2/restore`)).status).toBe(404);
    expect((await call('GET', `/projects/${id}/revisions/3`)).status).toBe(200);
    expect((await call('GET', `/projects/${id}/revisions/999`)).status).toBe(404);
  });

  it('restores a kept revision as a new revision, as PUT answers', async () => {
    const id = await createProject('#100000');
    await put(id, '#200000', undefined, 'Chair v2');
    const events = await eventCount(id);
    const res = await call('POST', `/projects/${id}/revisions/1/restore`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"r3"');
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      project: { id, name: 'Chair', revision: 3 },
      warnings: [{ code: 'not_checked', path: 'models.0' }],
    });
    expect(body.project.data.sceneData.projectSettings.brandColor).toBe('#100000');
    expect((await current(id)).data.sceneData.projectSettings.brandColor).toBe('#100000');
    expect(await eventCount(id)).toBe(events + 1);
    const { revisions } = await (await call('GET', `/projects/${id}/revisions`)).json();
    expect(revisions.map((r: { revision: number }) => r.revision)).toEqual([3, 2, 1]);
  });

  it('honours If-Match on restore', async () => {
    const id = await createProject('#100000');
    await put(id, '#200000');
    const stale = await call('POST', `/projects/${id}/revisions/1/restore`, undefined, {
      ...owner.headers,
      'if-match': '"r1"',
    });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ error: 'revision_conflict', currentRevision: 2 });
    expect((await current(id)).revision).toBe(2);
    const fresh = await call('POST', `/projects/${id}/revisions/1/restore`, undefined, {
      ...owner.headers,
      'if-match': '"r2"',
    });
    expect(fresh.status).toBe(200);
  });

  it('lets a viewer list and read revisions but not restore them', async () => {
    const id = await createProject();
    expect((await call('GET', `/projects/${id}/revisions`, undefined, viewer.headers)).status).toBe(200);
    expect((await call('GET', `/projects/${id}/revisions/1`, undefined, viewer.headers)).status).toBe(200);
    const restore = await call('POST', `/projects/${id}/revisions/1/restore`, undefined, viewer.headers);
    expect(restore.status).toBe(403);
    expect((await restore.json()).error).toBe('forbidden');
  });

  it("answers 404 for another workspace's project revisions", async () => {
    const id = await createProject();
    for (const [method, path] of [
      ['GET', `/projects/${id}/revisions`],
      ['GET', `/projects/${id}/revisions/1`],
      ['POST', `/projects/${id}/revisions/1/restore`],
    ]) {
      const res = await call(method, path, undefined, stranger.headers);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await res.json()).error).toBe('not_found');
    }
  });

  it('rejects a revision that is not a revision number', async () => {
    const id = await createProject();
    for (const revision of ['r1', '0', '99999999999']) {
      const res = await call('GET', `/projects/${id}/revisions/${revision}`);
      expect(res.status, revision).toBe(400);
      expect((await res.json()).error).toBe('invalid_request');
    }
  });
});

describe('OpenAPI', () => {
  it('describes the revision routes, the ETag, If-Match and the 412', async () => {
    const spec = await (await fetch(`${server.url}/openapi.json`)).json();
    const put = spec.paths['/projects/{id}'].put;
    expect(put.parameters.map((p: { name: string }) => p.name)).toContain('if-match');
    expect(put.responses['200'].headers.etag).toBeDefined();
    expect(put.responses['412'].content['application/json'].schema.properties.currentRevision).toBeDefined();
    expect(spec.paths['/projects/{id}'].get.responses['200'].headers.etag).toBeDefined();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/projects/{id}/revisions',
        '/projects/{id}/revisions/{revision}',
        '/projects/{id}/revisions/{revision}/restore',
        '/projects/{id}/preview',
      ]),
    );
    const restore = spec.paths['/projects/{id}/revisions/{revision}/restore'].post;
    expect(Object.keys(restore.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '412']));
  });
});
