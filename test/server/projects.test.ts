import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
let owner: TestPerson;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('owner@example.com');
});
afterAll(() => server.close());

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });
const sample = {
  name: 'Chair',
  type: 'configurator',
  data: {
    models: [{ id: 'm1', fileName: 'chair.glb', position: [1, 2, 3] }],
    sceneData: { projectSettings: { smtpPassword: 'secret', brandColor: '#ff0000' }, formFields: [] },
    renderQuality: 'high',
    saveConfigEnabled: true,
  },
};

describe('projects', () => {
  it('creates, reads, replaces and deletes a project, storing the scene compressed', async () => {
    const created = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: json(owner.headers),
      body: JSON.stringify(sample),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-api-version')).toBe('v3.16');
    const { project } = await created.json();
    expect(project).toMatchObject({ name: 'Chair', type: 'configurator', revision: 1 });
    expect(project.data.sceneData.projectSettings.smtpPassword).toBe('secret');

    const { rows } = await server.deps.db.$client.query('select scene, scene_bytes from projects where id = $1', [
      project.id,
    ]);
    expect(JSON.parse(gunzipSync(rows[0].scene).toString()).models[0].id).toBe('m1');

    const replaced = await fetch(`${server.url}/projects/${project.id}`, {
      method: 'PUT',
      headers: json(owner.headers),
      body: JSON.stringify({ ...sample, name: 'Chair v2' }),
    });
    expect(replaced.status).toBe(200);
    expect((await replaced.json()).project).toMatchObject({ name: 'Chair v2', revision: 2 });
    const events = await server.deps.db.$client.query('select type from project_events where project_id = $1', [
      project.id,
    ]);
    expect(events.rows.map((r) => r.type)).toEqual(['project.updated']);

    const list = await (await fetch(`${server.url}/projects`, { headers: owner.headers })).json();
    expect(list.projects.map((p: { id: string }) => p.id)).toContain(project.id);

    expect(
      (await fetch(`${server.url}/projects/${project.id}`, { method: 'DELETE', headers: owner.headers })).status,
    ).toBe(200);
    expect((await fetch(`${server.url}/projects/${project.id}`, { headers: owner.headers })).status).toBe(404);
  });

  it('names the field of a schema failure', async () => {
    const res = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: json(owner.headers),
      body: JSON.stringify({ name: 42 }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, error: 'invalid_request' });
    expect(body.details.map((d: { field: string }) => d.field)).toContain('body.name');
  });
});
