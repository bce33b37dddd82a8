import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as validator from 'gltf-validator';
import { NodeIO } from '@gltf-transform/core';
import { startTestServer, type TestServer, type TestPerson } from '../helpers/test-server.js';
import { startTestWorker, waitFor } from '../worker/submission-fixtures.js';
import { startFixtureLibraries, type FixtureLibraries } from '../../scripts/start/fixture-libraries/server.js';
import type { WorkerApp } from '../../worker/app.js';

/**
 * Library imports end to end against the fixture libraries: every refusal code, the worker's jobs, the validated GLB
 * with its credit, the failures (too large, broken, zip slip, zip bomb) and the library_b OAuth flow.
 */
let libs: FixtureLibraries;
let server: TestServer;
let worker: WorkerApp;
let owner: TestPerson;

const CHAIR_B = 'b1a2b3c4d5e6f708192a3b4c5d6e7f80'; // CC BY gltf zip
const CC0_B = 'c0a1b2c3d4e5f60718293a4b5c6d7e8f';

beforeAll(async () => {
  libs = await startFixtureLibraries({ accessTokenTtlSeconds: 30 });
  server = await startTestServer({
    ...libs.env,
    DASHBOARD_URL: 'http://dashboard.test/app/',
    RATE_LIMIT_IMPORT: '1000/10m',
  });
  worker = await startTestWorker(server.env.env, { ...libs.env, OUTBOX_RELAY_INTERVAL_MS: '200' });
  owner = await server.person('importer@example.com');
});
afterAll(async () => {
  await worker?.close(2000);
  await server?.close();
  await libs?.close();
});

const post = async (body: unknown, person = owner, target = server) => {
  const response = await fetch(`${target.url}/external-assets/imports`, {
    method: 'POST',
    headers: { ...person.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
};
const job = async (id: string, person = owner) =>
  (await (await fetch(`${server.url}/external-assets/imports/${id}`, { headers: person.headers })).json()).job;
const finished = (id: string, person = owner) =>
  waitFor(
    async () => {
      const j = await job(id, person);
      return j.status === 'completed' || j.status === 'failed' ? j : null;
    },
    `import ${id}`,
    60_000,
  );

/** Connects `person`'s library_b account through the OAuth flow, as a browser would. */
async function connect(person: TestPerson): Promise<string> {
  const started = await fetch(`${server.url}/external-providers/library_b/connect`, {
    method: 'POST',
    headers: person.headers,
  });
  expect(started.status).toBe(200);
  const { url } = await started.json();
  const authorize = await fetch(url, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const callback = authorize.headers.get('location')!;
  const back = await fetch(callback, { redirect: 'manual' });
  expect(back.status).toBe(302);
  return callback;
}

async function glbOfAsset(assetId: string, person = owner): Promise<Uint8Array> {
  const { asset } = await (await fetch(`${server.url}/assets/${assetId}`, { headers: person.headers })).json();
  return new Uint8Array(await (await fetch(asset.url)).arrayBuffer());
}

describe('the library_b connection', () => {
  it('connects through the OAuth flow, never shows a token, refuses a reused state, and disconnects', async () => {
    const person = await server.person('oauth@example.com');
    const before = await (
      await fetch(`${server.url}/external-providers/library_b/connection`, { headers: person.headers })
    ).json();
    expect(before).toMatchObject({ success: true, available: true, connected: false });

    const started = await fetch(`${server.url}/external-providers/library_b/connect`, {
      method: 'POST',
      headers: person.headers,
    });
    const { url } = await started.json();
    expect(new URL(url).searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(new URL(url).searchParams.get('client_id')).toBe('fixture-client-id');
    const callback = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    const done = await fetch(callback, { redirect: 'manual' });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('http://dashboard.test/app/?provider=library_b&status=connected');

    const status = await fetch(`${server.url}/external-providers/library_b/connection`, { headers: person.headers });
    const text = await status.text();
    expect(JSON.parse(text)).toMatchObject({
      connected: true,
      username: 'fixture-person',
      displayName: 'Fixture Person',
    });
    expect(text).not.toMatch(/token/i);
    // Sealed at rest: the stored value is not the token the library issued.
    const { rows } = await server.deps.db.$client.query('select access_token_enc from library_connections');
    for (const row of rows) expect(row.access_token_enc).toMatch(/^v1\./);

    // The same state a second time (a replayed callback) is refused.
    const replay = await fetch(callback, { redirect: 'manual' });
    expect(replay.headers.get('location')).toMatch(/status=error/);
    // A state nobody issued (or one expired after 10 minutes: gone from Redis) likewise.
    const forged = new URL(callback);
    forged.searchParams.set('state', 'x'.repeat(43));
    expect((await fetch(forged, { redirect: 'manual' })).headers.get('location')).toMatch(/status=error/);

    const providers = await (
      await fetch(`${server.url}/external-assets/providers`, { headers: person.headers })
    ).json();
    expect(providers.providers[1].connection).toMatchObject({ connected: true, username: 'fixture-person' });

    const removed = await fetch(`${server.url}/external-providers/library_b/connection`, {
      method: 'DELETE',
      headers: person.headers,
    });
    expect(await removed.json()).toEqual({ success: true, connected: false });
    expect(
      (await (await fetch(`${server.url}/external-providers/library_b/connection`, { headers: person.headers })).json())
        .connected,
    ).toBe(false);
  });

  it('expires the state after 10 minutes', async () => {
    const person = await server.person('expired@example.com');
    const { url } = await (
      await fetch(`${server.url}/external-providers/library_b/connect`, { method: 'POST', headers: person.headers })
    ).json();
    const state = new URL(url).searchParams.get('state')!;
    const ttl = await server.deps.redis.ttl(`${server.config.queuePrefix}:oauth:library_b:${state}`);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    await server.deps.redis.del(`${server.config.queuePrefix}:oauth:library_b:${state}`);
    const callback = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    expect((await fetch(callback, { redirect: 'manual' })).headers.get('location')).toMatch(/status=error/);
  });
});

describe('importing', () => {
  it('imports a library_b gltf zip: checked GLB, credit in copyright, readiness, provenance, then reuse', async () => {
    await connect(owner);
    const accepted = await post({ provider: 'library_b', providerAssetId: CHAIR_B, acknowledgeLicense: true });
    expect(accepted.status).toBe(202);
    expect(accepted.body.job).toMatchObject({
      status: 'queued',
      progress: 0,
      provider: 'library_b',
      providerAssetId: CHAIR_B,
    });
    const done = await finished(accepted.body.job.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, error: null });
    expect(done.bytesReceived).toBeGreaterThan(0);
    expect(done.bytesTotal).toBe(done.bytesReceived);
    expect(done.readiness).toMatchObject({
      score: expect.any(Number),
      level: expect.stringMatching(/ready|needs-work|not-ready/),
    });
    // The delivery file's line comes once the worker has made it (below).
    expect(done.readiness.checks.map((c: any) => c.id).slice(0, 10)).toEqual([
      'validity',
      'triangles',
      'size',
      'textures',
      'materials',
      'draw-calls',
      'scale',
      'pivot',
      'naming',
      'hygiene',
    ]);
    expect(done.readiness.score).toBeGreaterThanOrEqual(80);
    expect(Array.isArray(done.notices)).toBe(true);

    // The readiness report says what the delivery file saved, as the asset does, and scores the same.
    const withDelivery = await waitFor(async () => {
      const latest = await job(done.id);
      return latest.readiness.checks.find((c: any) => c.id === 'delivery') ? latest : null;
    }, 'the delivery line of the readiness report');
    const line = withDelivery.readiness.checks.find((c: any) => c.id === 'delivery');
    const { asset: delivered } = await (
      await fetch(`${server.url}/assets/${done.assetId}`, { headers: owner.headers })
    ).json();
    expect(delivered.delivery.status).toBe('ready');
    expect(line).toEqual({
      id: 'delivery',
      label: 'Delivery file',
      status: 'pass',
      value: delivered.delivery.sizeBytes,
      limit: delivered.delivery.originalBytes,
      message: expect.stringMatching(/^Shoppers download \d+ KB instead of \d+ KB \(\d+% less\)/),
    });
    expect(withDelivery.readiness.score).toBe(done.readiness.score);

    const glb = await glbOfAsset(done.assetId);
    const report = await validator.validateBytes(glb, { maxIssues: 0 });
    expect(report.issues.numErrors).toBe(0);
    const document = await new NodeIO().readBinary(glb);
    const copyright = document.getRoot().getAsset().copyright ?? '';
    expect(copyright).toContain('"Vintage Armchair" by Atelier3d');
    expect(copyright).toContain('CC Attribution');
    expect(copyright).toContain('Sketchfab');

    const list = await (await fetch(`${server.url}/assets`, { headers: owner.headers })).json();
    const asset = list.assets.find((a: any) => a.id === done.assetId);
    expect(asset).toMatchObject({
      readinessScore: done.readiness.score,
      readinessLevel: done.readiness.level,
      sourceFormat: 'zip',
    });
    expect(asset.externalSource).toMatchObject({
      library: 'library_b',
      modelId: CHAIR_B,
      name: 'Vintage Armchair',
      author: 'Atelier3d',
      licenseId: 'by',
      attributionRequired: true,
      commercialUseAllowed: true,
      providerCredit: expect.stringContaining('Sketchfab'),
    });
    expect(asset.externalSource.attribution).toBe(copyright);

    const again = await post({ provider: 'library_b', providerAssetId: CHAIR_B, acknowledgeLicense: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ success: true, reused: true, assetId: done.assetId });
    const item = await (
      await fetch(`${server.url}/external-assets/items/library_b/${CHAIR_B}`, { headers: owner.headers })
    ).json();
    expect(item.alreadyImported).toEqual({ assetId: done.assetId });

    const recent = await (await fetch(`${server.url}/external-assets/imports`, { headers: owner.headers })).json();
    expect(recent.jobs[0].id).toBe(accepted.body.job.id);
  });

  it('imports a library_a glTF with its files, and a library_c GLB', async () => {
    const a = await post({ provider: 'library_a', providerAssetId: 'wooden_chair_01' });
    expect(a.status).toBe(202);
    const c = await post({ provider: 'library_c', providerAssetId: 'edanmdm:nasm_A19610048000' });
    expect(c.status).toBe(202);
    const [doneA, doneC] = await Promise.all([finished(a.body.job.id), finished(c.body.job.id)]);
    expect(doneA).toMatchObject({ status: 'completed' });
    expect(doneC).toMatchObject({ status: 'completed' });
    const glbA = await glbOfAsset(doneA.assetId);
    expect((await validator.validateBytes(glbA, { maxIssues: 0 })).issues.numErrors).toBe(0);
    expect((await new NodeIO().readBinary(glbA)).getRoot().getAsset().copyright).toContain('Poly Haven');
    const glbC = await glbOfAsset(doneC.assetId);
    expect((await new NodeIO().readBinary(glbC)).getRoot().getAsset().copyright).toContain('Smithsonian');
  });

  it('ends too large, broken and hostile archives failed with their codes, leaving no asset and no file', async () => {
    const cases: Array<[string, string]> = [
      ['d1a2b3c4d5e6f708192a3b4c5d6e7f84', 'too_large'], // lies about its size; streams 90 MB
      ['d4a2b3c4d5e6f708192a3b4c5d6e7f87', 'invalid_file'], // broken glTF
      ['d2a2b3c4d5e6f708192a3b4c5d6e7f85', 'invalid_file'], // zip slip
      ['d3a2b3c4d5e6f708192a3b4c5d6e7f86', 'too_large'], // zip bomb
    ];
    const before = (await (await fetch(`${server.url}/assets`, { headers: owner.headers })).json()).assets.length;
    const failedIds: string[] = [];
    for (const [uid, code] of cases) {
      const accepted = await post({ provider: 'library_b', providerAssetId: uid });
      expect(accepted.status, uid).toBe(202);
      failedIds.push(accepted.body.job.id);
      const done = await finished(accepted.body.job.id);
      expect(done, uid).toMatchObject({ status: 'failed', error: { code } });
      expect(done.error.message.length).toBeGreaterThan(5);
    }
    const broken = await post({ provider: 'library_a', providerAssetId: 'broken_vase_01' });
    failedIds.push(broken.body.job.id);
    expect((await finished(broken.body.job.id)).error.code).toBe('invalid_file');
    // No stored file either (a GLB written while the validator ran is removed with the failure).
    const stored = (await readdir(server.env.storageDir, { recursive: true })).map(String);
    expect(stored.filter((file) => failedIds.some((id) => file.includes(id)))).toEqual([]);
    const after = (await (await fetch(`${server.url}/assets`, { headers: owner.headers })).json()).assets.length;
    expect(after).toBe(before);
    const leftovers = await readdir(path.join(tmpdir(), 'config-share-imports')).catch(() => []);
    expect(leftovers.filter((d) => d.length === 36)).toEqual([]);
  });
});

describe('refusals', () => {
  it('answers each error of the interface', async () => {
    const expectError = async (body: unknown, status: number, code: string, person = owner) => {
      const answer = await post(body, person);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.error, JSON.stringify(body)).toBe(code);
      return answer;
    };
    await expectError({ provider: 'library_a' }, 400, 'invalid_request');
    await expectError({ provider: 'library_q', providerAssetId: 'x' }, 400, 'invalid_request');
    await expectError({ provider: 'library_a', providerAssetId: 'no_such_model' }, 404, 'not_found');
    await expectError(
      { provider: 'library_b', providerAssetId: 'e1a2b3c4d5e6f708192a3b4c5d6e7f81' },
      403,
      'license_blocked',
    ); // BY-NC
    await expectError(
      { provider: 'library_b', providerAssetId: 'f1a2b3c4d5e6f708192a3b4c5d6e7f82' },
      403,
      'license_blocked',
    ); // Standard
    await expectError(
      { provider: 'library_b', providerAssetId: 'a9a2b3c4d5e6f708192a3b4c5d6e7f83' },
      403,
      'license_blocked',
    ); // Editorial
    await expectError(
      { provider: 'library_c', providerAssetId: 'edanmdm:nmnhanthropology_8361340' },
      403,
      'license_blocked',
    ); // usage conditions
    await expectError(
      { provider: 'library_b', providerAssetId: 'b2a3b4c5d6e7f8091a2b3c4d5e6f7081' },
      409,
      'license_ack_required',
    ); // BY-SA
    await expectError(
      { provider: 'library_b', providerAssetId: '4737a3b84e00415b9d8bb42ae44285b2', acknowledgeLicense: true },
      413,
      'too_large',
    );
    await expectError(
      { provider: 'library_b', providerAssetId: 'd5a2b3c4d5e6f708192a3b4c5d6e7f88' },
      422,
      'not_importable',
    );
    // An item without 3D media.
    await expectError({ provider: 'library_c', providerAssetId: 'edanmdm:nmah_1000001' }, 404, 'not_found');

    const stranger = await server.person('not-connected@example.com');
    await expectError({ provider: 'library_b', providerAssetId: CC0_B }, 409, 'auth_required', stranger);

    const viewer = await server.member(owner.workspaceId, 'viewer@example.com', 'viewer');
    await expectError({ provider: 'library_a', providerAssetId: 'side_table_01' }, 403, 'forbidden', viewer);
    expect(
      (await fetch(`${server.url}/external-assets/search?q=table&providers=library_a`, { headers: viewer.headers }))
        .status,
    ).toBe(200);

    const full = await server.person('full@example.com');
    await server.deps.db.$client.query('update workspaces set model_limit = 0 where id = $1', [full.workspaceId]);
    await expectError({ provider: 'library_a', providerAssetId: 'side_table_01' }, 403, 'quota_exceeded', full);
  });

  it('answers 409 auth_required when library_b refuses the stored token', async () => {
    const person = await server.person('revoked@example.com');
    await connect(person);
    await server.deps.db.$client.query(
      `update library_connections set access_token_enc = $1, refresh_token_enc = null, expires_at = now() - ` +
        `interval '1 hour' where person_id = $2`,
      ['v1.AAAA.BBBB.CCCC', person.personId],
    );
    const accepted = await post({ provider: 'library_b', providerAssetId: CC0_B }, person);
    expect(accepted.status).toBe(202);
    expect((await finished(accepted.body.job.id, person)).error.code).toBe('auth_required');
  });

  it('refreshes an expired access token before downloading', async () => {
    const person = await server.person('refresh@example.com');
    await connect(person);
    // Tokens of these fixtures live 30 s, under the one-minute margin: the import refreshes first.
    const refreshes = libs.refreshes;
    const accepted = await post({ provider: 'library_b', providerAssetId: CC0_B }, person);
    expect((await finished(accepted.body.job.id, person)).status).toBe('completed');
    expect(libs.refreshes).toBe(refreshes + 1);
  });

  it('answers 503 provider_not_configured for library_b without an OAuth client', async () => {
    const bare = await startTestServer({ ...libs.env, LIBRARY_B_CLIENT_ID: '', LIBRARY_B_CLIENT_SECRET: '' });
    try {
      const person = await bare.person('bare@example.com');
      const answer = await post({ provider: 'library_b', providerAssetId: CC0_B }, person, bare);
      expect(answer.status).toBe(503);
      expect(answer.body.error).toBe('provider_not_configured');
      const connect = await fetch(`${bare.url}/external-providers/library_b/connect`, {
        method: 'POST',
        headers: person.headers,
      });
      expect(connect.status).toBe(503);
      expect(
        (await (await fetch(`${bare.url}/external-providers/library_b/connection`, { headers: person.headers })).json())
          .available,
      ).toBe(false);
    } finally {
      await bare.close();
    }
  });

  it('lets 3 imports run at once per workspace, decided atomically, then 429 too_many_imports', async () => {
    const person = await server.person('busy@example.com');
    // No worker takes these jobs: they stay queued.
    const idle = await startTestServer({ ...libs.env, QUEUE_PREFIX: `idle-${Date.now()}` });
    try {
      const p = await idle.person('busy@example.com');
      const ids = [
        'wooden_chair_01',
        'side_table_01',
        'horse_statue_01',
        'wooden_crate_01',
        'rock_moss_set_01',
        'vintage_radio_01',
      ];
      const answers = await Promise.all(ids.map((id) => post({ provider: 'library_a', providerAssetId: id }, p, idle)));
      expect(answers.filter((a) => a.status === 202)).toHaveLength(3);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(3);
      for (const r of refused) {
        expect(r.body.error).toBe('too_many_imports');
        expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    } finally {
      await idle.close();
    }
    expect(person).toBeTruthy();
  });

  it('counts 30 import starts per 10 minutes per person (RATE_LIMIT_IMPORT), then 429 rate_limited', async () => {
    const limited = await startTestServer({ ...libs.env, RATE_LIMIT_IMPORT: '2/10m' });
    try {
      const p = await limited.person('rate@example.com');
      expect((await post({ provider: 'library_a', providerAssetId: 'no_such_model' }, p, limited)).status).toBe(404);
      expect((await post({ provider: 'library_a', providerAssetId: 'no_such_model' }, p, limited)).status).toBe(404);
      const refused = await post({ provider: 'library_a', providerAssetId: 'no_such_model' }, p, limited);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});
