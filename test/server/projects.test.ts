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
    const { project, warnings } = await created.json();
    expect(project).toMatchObject({ name: 'Chair', type: 'configurator', revision: 1 });
    expect(Array.isArray(warnings)).toBe(true);
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
    const replacedBody = await replaced.json();
    expect(replacedBody.project).toMatchObject({ name: 'Chair v2', revision: 2 });
    expect(Array.isArray(replacedBody.warnings)).toBe(true);
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

  it("answers the scene report's warnings on create and replace, saving anyway", async () => {
    const block = (effects: unknown[]) => ({
      id: 'color',
      name: 'Color',
      targetObjectId: 'm1',
      choices: [{ id: 'red', label: 'Red', effects }],
    });
    const withEffects = (effects: unknown[]) => ({
      ...sample,
      data: { ...sample.data, sceneData: { ...sample.data.sceneData, optionBlocks: [block(effects)] } },
    });
    const unknownModel = { type: 'material', model: 'nope', color: '#ff0000' };
    const expected = expect.arrayContaining([
      expect.objectContaining({
        path: 'sceneData.optionBlocks.0.choices.0.effects.0.model',
        code: 'unknown_reference',
      }),
    ]);

    const created = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: json(owner.headers),
      body: JSON.stringify(withEffects([unknownModel])),
    });
    expect(created.status).toBe(201);
    const { project, warnings } = await created.json();
    expect(warnings).toEqual(expected);

    const replaced = await fetch(`${server.url}/projects/${project.id}`, {
      method: 'PUT',
      headers: json(owner.headers),
      body: JSON.stringify(withEffects([{ type: 'material', color: '#00ff00' }, unknownModel])),
    });
    expect(replaced.status).toBe(200);
    const body = await replaced.json();
    expect(body.project.revision).toBe(2);
    expect(body.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'sceneData.optionBlocks.0.choices.0.effects.1.model',
          code: 'unknown_reference',
        }),
      ]),
    );
    expect(body.project.data.sceneData.optionBlocks[0].choices[0].effects).toHaveLength(2);
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
