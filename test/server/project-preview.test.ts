import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { TEST_SECRETS } from '../helpers/test-env.js';
import { chairGlb, uploadForm } from '../helpers/model-fixtures.js';

/** POST /projects/:id/preview (docs/api.md, "Revisions and preview"): unsaved data as the public read serves it. */
let server: TestServer;
let owner: TestPerson;
let editor: TestPerson;
let viewer: TestPerson;
let stranger: TestPerson;
let assetId: string;

const KEY = TEST_SECRETS.PUBLIC_ANON_KEY;
const PUBLIC = { apikey: KEY, authorization: `Bearer ${KEY}` };

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('owner@preview.test');
  editor = await server.member(owner.workspaceId, 'editor@preview.test', 'editor');
  viewer = await server.member(owner.workspaceId, 'viewer@preview.test', 'viewer');
  stranger = await server.person('stranger@preview.test');
  const upload = await fetch(`${server.url}/assets`, {
    method: 'POST',
    headers: owner.headers,
    body: uploadForm(await chairGlb(), 'chair.glb'),
  });
  expect(upload.status).toBe(201);
  assetId = (await upload.json()).asset.id;
});
afterAll(() => server?.close());

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = owner.headers) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Unsaved edits: an asset model with array vectors, credentials in projectSettings, an effect naming no model. */
const edited = () => ({
  models: [
    { id: 'chair', fileName: 'chair.glb', assetId, position: [1, 2, 3], rotation: [0, 0.5, 0], scale: [2, 2, 2] },
    { id: 'spare', fileName: 'spare.glb' },
  ],
  sceneData: {
    projectSettings: {
      brandColor: '#336699',
      smtpPassword: 'hunter2',
      smtpHost: 'mail.example.com',
      webhookSecret: 'whsec',
      webhookUrl: 'https://hooks.example.com',
      lighting: { smtpUser: 'nested', intensity: 2 },
    },
    optionBlocks: [
      {
        id: 'color',
        name: 'Color',
        targetObjectId: 'chair',
        choices: [{ id: 'red', label: 'Red', effects: [{ type: 'material', model: 'nope', color: '#ff0000' }] }],
      },
    ],
  },
  camera: { position: [0, 1, 5], target: [0, 0, 0] },
  renderQuality: 'high',
  saveConfigEnabled: true,
});

async function createProject(): Promise<string> {
  const res = await call('POST', '/projects', {
    name: 'Chair',
    type: 'configurator',
    data: { models: [], sceneData: {} },
  });
  expect(res.status).toBe(201);
  return (await res.json()).project.id;
}

/** Signed URLs differ only by their signing window: compare payloads with the query strings removed. */
const withoutQueries = (payload: unknown) => JSON.parse(JSON.stringify(payload).replace(/\?[^"]*"/g, '"'));

async function eventCount(id: string): Promise<number> {
  const { rows } = await server.deps.db.$client.query(
    'select count(*)::int as n from project_events where project_id = $1',
    [id],
  );
  return rows[0].n;
}

describe('preview', () => {
  it('answers what the public read answers for the same data once saved and shared', async () => {
    const id = await createProject();
    const res = await call('POST', `/projects/${id}/preview`, { data: edited() }, editor.headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    const preview = await res.json();
    expect(preview.success).toBe(true);

    const saved = await call('PUT', `/projects/${id}`, { name: 'Chair', type: 'configurator', data: edited() });
    expect(saved.status).toBe(200);
    const { settings } = await (await call('PUT', `/projects/${id}/share`, { isEnabled: true })).json();
    const read = await fetch(`${server.url}/share/${id}/${settings.shareToken}`, { headers: PUBLIC });
    expect(read.status).toBe(200);
    expect(withoutQueries(preview.payload)).toEqual(withoutQueries(await read.json()));
  });

  it('redacts owner credentials, normalises vectors and signs model URLs', async () => {
    const id = await createProject();
    const { payload } = await (await call('POST', `/projects/${id}/preview`, { data: edited() })).json();
    const settings = payload.project.data.sceneData.projectSettings;
    expect(settings).toEqual({ brandColor: '#336699', lighting: { intensity: 2 } });
    const [chair, spare] = payload.project.data.models;
    expect(chair).toMatchObject({ position: { x: 1, y: 2, z: 3 }, scale: { x: 2, y: 2, z: 2 } });
    expect(chair.url).toMatch(/\/files\/.+\?exp=\d+&sig=/);
    expect((await fetch(chair.url)).status).toBe(200);
    expect(spare.url).toBeUndefined();
    expect(payload.project.data.camera).toEqual({ position: { x: 0, y: 1, z: 5 }, target: { x: 0, y: 0, z: 0 } });
    expect(payload.project).toMatchObject({ id, name: 'Chair', type: 'configurator' });
  });

  it('answers the warnings a save would give', async () => {
    const id = await createProject();
    const { warnings } = await (await call('POST', `/projects/${id}/preview`, { data: edited() })).json();
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'sceneData.optionBlocks.0.choices.0.effects.0.model',
          code: 'unknown_reference',
        }),
      ]),
    );
  });

  it('writes nothing: same revision, no event, share state and read budget untouched', async () => {
    const id = await createProject();
    const { settings } = await (await call('PUT', `/projects/${id}/share`, { isEnabled: true })).json();
    const readBefore = await fetch(`${server.url}/share/${id}/${settings.shareToken}`, { headers: PUBLIC });
    const remaining = Number(readBefore.headers.get('ratelimit-remaining'));
    const etag = readBefore.headers.get('etag')!;
    const events = await eventCount(id);

    for (let i = 0; i < 3; i++)
      expect((await call('POST', `/projects/${id}/preview`, { data: edited() })).status).toBe(200);

    const project = (await (await call('GET', `/projects/${id}`)).json()).project;
    expect(project.revision).toBe(1);
    expect(project.data.models).toEqual([]);
    expect(await eventCount(id)).toBe(events);
    const { revisions } = await (await call('GET', `/projects/${id}/revisions`)).json();
    expect(revisions).toHaveLength(1);
    const readAfter = await fetch(`${server.url}/share/${id}/${settings.shareToken}`, {
      headers: { ...PUBLIC, 'if-none-match': etag },
    });
    expect(readAfter.status).toBe(304);
    expect(Number(readAfter.headers.get('ratelimit-remaining'))).toBe(remaining - 1);
  });

  it('works for a project that was never shared', async () => {
    const id = await createProject();
    expect((await call('GET', `/projects/${id}/share`)).status).toBe(200);
    const res = await call('POST', `/projects/${id}/preview`, { data: { models: [], sceneData: {} } });
    expect(res.status).toBe(200);
    expect((await res.json()).payload.project.data).toMatchObject({ models: [], renderQuality: 'optimised' });
  });

  it('refuses viewers, strangers, unknown projects and data a save would refuse', async () => {
    const id = await createProject();
    const data = { models: [], sceneData: {} };
    expect((await call('POST', `/projects/${id}/preview`, { data }, viewer.headers)).status).toBe(403);
    expect((await call('POST', `/projects/${id}/preview`, { data }, stranger.headers)).status).toBe(404);
    expect((await call('POST', `/projects/00000000-0000-4000-8000-000000000000/preview`, { data })).status).toBe(404);
    const noData = await call('POST', `/projects/${id}/preview`, {});
    expect(noData.status).toBe(400);
    expect((await noData.json()).details.map((d: { field: string }) => d.field)).toContain('body.data');
    const twice = {
      models: [
        { id: 'a', fileName: 'a.glb' },
        { id: 'a', fileName: 'b.glb' },
      ],
      sceneData: {},
    };
    expect((await call('POST', `/projects/${id}/preview`, { data: twice })).status).toBe(400);
  });

  it('takes bodies up to the save limit of 10 MB', async () => {
    const id = await createProject();
    const padding = 'x'.repeat(11 * 1024 * 1024);
    const res = await call('POST', `/projects/${id}/preview`, {
      data: { models: [], sceneData: { projectSettings: { padding } } },
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe('payload_too_large');
  });
});
