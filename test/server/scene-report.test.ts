import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { PRICED_STOOL } from '../helpers/priced-stool.js';

/** GET /projects/:id/scene-report (docs/api.md, Projects and assets): the shared parser's view of the stored scene. */
let server: TestServer;
let owner: TestPerson;
let viewer: TestPerson;
let stranger: TestPerson;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('owner@report.test');
  viewer = await server.member(owner.workspaceId, 'viewer@report.test', 'viewer');
  stranger = await server.person('stranger@report.test');
});
afterAll(() => server?.close());

const [seat, legs] = PRICED_STOOL.optionBlocks;
/** The priced stool with three deliberate mistakes: an unknown effect, a repeated block id, a formula op. */
const sceneData = {
  ...PRICED_STOOL,
  formFields: PRICED_STOOL.formFields.filter(({ id }) => id !== 'email'),
  optionBlocks: [
    {
      ...seat,
      choices: seat.choices.map((choice) =>
        choice.id === 'walnut'
          ? {
              ...choice,
              effects: [
                { type: 'material', nodes: ['Seat'], color: '#5c4033' },
                { type: 'sparkle', nodes: ['Seat'] },
              ],
            }
          : choice,
      ),
    },
    legs,
    { id: 'seat', name: 'Seat again', choices: [{ id: 'pine', label: 'Pine' }] },
  ],
  pricingFormula: [...PRICED_STOOL.pricingFormula, { op: 'evaluate', value: 2 }],
  animationBlocks: [{ id: 'turn', name: 'Turn around', clip: 'Turn', trigger: 'button' }],
};

async function createProject(data: Record<string, unknown>) {
  const res = await fetch(`${server.url}/projects`, {
    method: 'POST',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Stool', type: 'configurator', data }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).project as { id: string };
}

const report = (projectId: string, person: TestPerson = owner) =>
  fetch(`${server.url}/projects/${projectId}/scene-report`, { headers: person.headers });

describe('scene report', () => {
  it('counts what the parser kept, names each mistake by path, and gives the defaults and their price', async () => {
    const project = await createProject({
      models: [{ id: 'stool', fileName: 'stool.glb', deletedParts: ['Footrest'] }],
      sceneData,
    });
    const res = await report(project.id);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      revision: 1,
      counts: {
        models: 1,
        optionBlocks: 2,
        choices: 4,
        effects: 1,
        rules: 1,
        animationBlocks: 1,
        pricingBlocks: 1,
        formulaSteps: 1,
        formFields: 2,
      },
      defaultOptions: { seat: 'oak', legs: 'steel' },
      defaultPrice: { currency: 'EUR', decimals: 2, total: 14900, lines: [expect.objectContaining({ id: 'base' })] },
    });
    const warning = (code: string, path: RegExp) =>
      expect.objectContaining({ code, path: expect.stringMatching(path), message: expect.any(String) });
    expect(body.warnings).toEqual(
      expect.arrayContaining([
        warning('unsupported', /^sceneData\.optionBlocks\.0\.choices\.1\.effects\.1(\.|$)/),
        warning('duplicate_id', /^sceneData\.optionBlocks\.2(\.|$)/),
        warning('unsupported', /^sceneData\.pricingFormula\.1(\.|$)/),
      ]),
    );
  });

  it('reports the current revision, and an empty scene as empty, without pricing', async () => {
    const project = await createProject({ models: [], sceneData: {} });
    const replaced = await fetch(`${server.url}/projects/${project.id}`, {
      method: 'PUT',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stool', type: 'configurator', data: { models: [], sceneData: {} } }),
    });
    expect(replaced.status).toBe(200);
    expect(await (await report(project.id)).json()).toEqual({
      success: true,
      revision: 2,
      counts: {
        models: 0,
        optionBlocks: 0,
        choices: 0,
        effects: 0,
        rules: 0,
        animationBlocks: 0,
        pricingBlocks: 0,
        formulaSteps: 0,
        formFields: 0,
      },
      warnings: [],
      defaultOptions: {},
      defaultPrice: null,
    });
  });

  it("lets a viewer read it; another workspace's project is 404, no credentials 401, a malformed id 400", async () => {
    const project = await createProject({ models: [], sceneData });
    expect((await report(project.id, viewer)).status).toBe(200);
    const foreign = await report(project.id, stranger);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ success: false, error: 'not_found' });
    expect((await report(randomUUID())).status).toBe(404);
    expect((await fetch(`${server.url}/projects/${project.id}/scene-report`)).status).toBe(401);
    expect((await report('not-a-uuid')).status).toBe(400);
  });
});
