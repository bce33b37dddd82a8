import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { uploadForm } from '../helpers/model-fixtures.js';
import { startTestWorker, waitFor } from '../worker/submission-fixtures.js';
import { startFixtureLibraries, type FixtureLibraries } from '../../scripts/start/fixture-libraries/server.js';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { demoProjectData } from '../../scripts/start/demo-data.js';
import { glbOutline } from '#core/domain/models/model-outline.js';
import type { WorkerApp } from '../../worker/app.js';

/**
 * Model outlines and names checked (docs/api.md): the outline stored when an asset is saved (upload and import),
 * GET /assets/:id/outline with its lazy fill, and the scene report's unknown_name and not_checked warnings.
 */
let libs: FixtureLibraries;
let server: TestServer;
let worker: WorkerApp;
let owner: TestPerson;
let viewer: TestPerson;
let stranger: TestPerson;
let stool: { id: string; fileName: string };

beforeAll(async () => {
  libs = await startFixtureLibraries();
  server = await startTestServer({ ...libs.env, RATE_LIMIT_IMPORT: '1000/10m' });
  worker = await startTestWorker(server.env.env, { ...libs.env, OUTBOX_RELAY_INTERVAL_MS: '200' });
  owner = await server.person('outline-owner@example.com');
  viewer = await server.member(owner.workspaceId, 'outline-viewer@example.com', 'viewer');
  stranger = await server.person('outline-stranger@example.com');
  stool = await upload(owner, await demoStoolGlb(), 'stool.glb');
});
afterAll(async () => {
  await worker?.close(2000);
  await server?.close();
  await libs?.close();
});

async function upload(person: TestPerson, bytes: Uint8Array, fileName: string) {
  const res = await fetch(`${server.url}/assets`, {
    method: 'POST',
    headers: person.headers,
    body: uploadForm(bytes, fileName),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.asset as { id: string; fileName: string };
}

const outlineOf = (assetId: string, person = owner) =>
  fetch(`${server.url}/assets/${assetId}/outline`, { headers: person.headers });

async function storedOutline(assetId: string): Promise<unknown> {
  const { rows } = await server.deps.db.$client.query('select outline from assets where id = $1', [assetId]);
  return rows[0]?.outline ?? null;
}

async function createProject(data: Record<string, unknown>) {
  const res = await fetch(`${server.url}/projects`, {
    method: 'POST',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Stool', type: 'configurator', data }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).project as { id: string };
}

async function warningsOf(data: Record<string, unknown>) {
  const project = await createProject(data);
  const res = await fetch(`${server.url}/projects/${project.id}/scene-report`, { headers: owner.headers });
  expect(res.status).toBe(200);
  return (await res.json()).warnings as Array<{ path: string; code: string; message: string; suggestions?: string[] }>;
}

describe('model outlines', () => {
  it('stores the outline when a model is uploaded and answers it to anyone who may read the asset', async () => {
    const expected = await glbOutline(await demoStoolGlb());
    expect(await storedOutline(stool.id)).toEqual(expected);
    for (const person of [owner, viewer]) {
      const res = await outlineOf(stool.id, person);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true, outline: expected });
    }
    const body = (await (await outlineOf(stool.id)).json()).outline;
    expect(body.nodes.map((node: { name: string }) => node.name)).toEqual([
      'Stool',
      'Seat',
      'Leg_1',
      'Leg_2',
      'Leg_3',
      'Leg_4',
      'Backrest',
      'Footrest',
    ]);
    expect(body).toMatchObject({
      materials: ['Oak', 'Steel', 'Brass'],
      variants: ['steel', 'brass'],
      animations: [{ name: 'Turn', duration: 2 }],
    });
    // The asset list and read stay as they were: no outline in them.
    const asset = (await (await fetch(`${server.url}/assets/${stool.id}`, { headers: owner.headers })).json()).asset;
    expect(asset).not.toHaveProperty('outline');
  });

  it('computes the outline of an asset saved before outlines on the first read, then keeps it', async () => {
    const old = await upload(owner, await demoStoolGlb(), 'old-stool.glb');
    await server.deps.db.$client.query('update assets set outline = null where id = $1', [old.id]);
    const res = await outlineOf(old.id);
    expect(res.status).toBe(200);
    const { outline } = await res.json();
    expect(outline).toEqual(await glbOutline(await demoStoolGlb()));
    expect(await storedOutline(old.id)).toEqual(outline);
  });

  it("answers 404 for another workspace's asset or none, 400 for a malformed id, 401 without credentials", async () => {
    const foreign = await outlineOf(stool.id, stranger);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ success: false, error: 'not_found' });
    expect((await outlineOf(randomUUID())).status).toBe(404);
    expect((await outlineOf('not-a-uuid')).status).toBe(400);
    expect((await fetch(`${server.url}/assets/${stool.id}/outline`)).status).toBe(401);
  });

  it('stores the outline of an imported model with the asset', async () => {
    const res = await fetch(`${server.url}/external-assets/imports`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'library_a', providerAssetId: 'wooden_chair_01' }),
    });
    expect(res.status).toBe(202);
    const { job } = await res.json();
    const done = await waitFor(
      async () => {
        const current = (
          await (await fetch(`${server.url}/external-assets/imports/${job.id}`, { headers: owner.headers })).json()
        ).job;
        return current.status === 'completed' || current.status === 'failed' ? current : null;
      },
      'the import',
      60_000,
    );
    expect(done.status).toBe('completed');
    // Stored by the import itself, before anyone asks for it.
    const stored = (await storedOutline(done.assetId)) as { nodes: Array<{ name: string }>; materials: string[] };
    expect(stored.nodes.map((node) => node.name)).toEqual(
      expect.arrayContaining(['Chair', 'Seat', 'Back', 'Leg_1', 'Leg_4']),
    );
    expect(stored.materials).toEqual(expect.arrayContaining(['Metal']));
    const { asset } = await (await fetch(`${server.url}/assets/${done.assetId}`, { headers: owner.headers })).json();
    const glb = new Uint8Array(await (await fetch(asset.url)).arrayBuffer());
    expect(stored).toEqual(await glbOutline(glb));
  });
});

describe('names checked in the scene report', () => {
  const model = () => ({ id: 'stool', fileName: 'stool.glb', assetId: stool.id });

  it('gives the demo stool project no name warning', async () => {
    const warnings = await warningsOf(demoProjectData(model()));
    expect(warnings.filter((w) => w.code === 'unknown_name' || w.code === 'not_checked')).toEqual([]);
  });

  it('names an unknown part with the closest names of the model, after the parser warnings', async () => {
    const data = demoProjectData(model());
    const [seat] = data.sceneData.optionBlocks;
    seat.choices[1].effects = [{ type: 'material', nodes: ['Sead', 'Backrest'], color: '#5a3a22', roughness: 0.55 }];
    data.sceneData.animationBlocks = [{ id: 'turn', name: 'Turn around', clip: 'Spin', trigger: 'sideways' } as never];
    const warnings = await warningsOf(data);
    const names = warnings.filter((w) => w.code === 'unknown_name');
    expect(names).toEqual([
      {
        path: 'sceneData.optionBlocks.0.choices.1.effects.0.nodes.0',
        code: 'unknown_name',
        message: `Part "Sead" is not in model "stool" (${stool.fileName}).`,
        suggestions: ['Seat'],
      },
      expect.objectContaining({ path: 'sceneData.animationBlocks.0.clip', suggestions: [] }),
    ]);
    // The parser's warning (the unknown trigger) comes first.
    expect(warnings[0]).toMatchObject({ code: 'unsupported', path: 'sceneData.animationBlocks.0.trigger' });
  });

  it('gives not_checked for a model without an asset of this workspace', async () => {
    const foreign = await upload(stranger, await demoStoolGlb(), 'theirs.glb');
    const warnings = await warningsOf({
      models: [
        { id: 'plain', fileName: 'plain.glb', partTransforms: { Nothing: { position: [0, 0, 0] } } },
        { id: 'theirs', fileName: 'theirs.glb', assetId: foreign.id, deletedParts: ['Nothing'] },
        { id: 'stool', fileName: 'stool.glb', assetId: stool.id, deletedParts: ['Footrest'] },
      ],
      sceneData: {},
    });
    expect(warnings.map(({ path, code }) => [path, code])).toEqual([
      ['models.0', 'not_checked'],
      ['models.1', 'not_checked'],
    ]);
    expect(warnings[1].message).toMatch(/"theirs"/);
  });
});
