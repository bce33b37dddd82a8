import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as validator from 'gltf-validator';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startTestBff, type TestBff } from '../helpers/bff-app.js';
import { PUBLIC_HEADERS, startTestWorker, waitFor } from '../worker/submission-fixtures.js';
import { productModelGlb } from '../helpers/product-model.js';
import { notAModel } from '../helpers/model-fixtures.js';
import { glbOutline } from '#core/domain/models/model-outline.js';
import { outlineDifference } from '#core/domain/models/outline-difference.js';
import { storageKeys } from '#core/platform/storage/index.js';
import { createStoredFileRepository } from '#core/repositories/stored-files.js';
import { runTs } from '../cli/run-command.js';
import type { WorkerApp } from '../../worker/app.js';

/**
 * Delivery files end to end (docs/delivery-files.md): an upload gets one from the worker, the public read (and so
 * the BFF) serves it once ready under a new ETag while the owner's URL stays the original; what cannot be made is
 * served as uploaded; assets saved before get theirs lazily and from the admin command.
 */
let server: TestServer;
let worker: WorkerApp;
let bff: TestBff;
let owner: TestPerson;
let glb: Uint8Array;

beforeAll(async () => {
  server = await startTestServer();
  worker = await startTestWorker(server.env.env);
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url });
  owner = await server.person('delivery@example.com');
  glb = await productModelGlb({ textureSide: 512, segments: 16 });
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await worker?.close(2000);
  await server?.close();
});

async function upload(bytes: Uint8Array, name = 'armchair.glb') {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'model/gltf-binary' }), name);
  const response = await fetch(`${server.url}/assets`, { method: 'POST', headers: owner.headers, body: form });
  expect(response.status).toBe(201);
  return (await response.json()).asset;
}
const asset = async (id: string) =>
  (await (await fetch(`${server.url}/assets/${id}`, { headers: owner.headers })).json()).asset;
const delivered = (id: string) =>
  waitFor(async () => {
    const row = await asset(id);
    return row.delivery.status !== 'pending' ? row : null;
  }, `the delivery file of ${id}`);
const bytesAt = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

async function sharedProject(assetId: string) {
  const created = await fetch(`${server.url}/projects`, {
    method: 'POST',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Armchair',
      type: 'configurator',
      data: { models: [{ id: 'armchair', fileName: 'armchair.glb', assetId }] },
    }),
  });
  const { project } = await created.json();
  const shared = await fetch(`${server.url}/projects/${project.id}/share`, {
    method: 'PUT',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ isEnabled: true, requirePassword: false, domainRestrictions: [] }),
  });
  const { settings } = await shared.json();
  return `/share/${project.id}/${settings.shareToken}`;
}
async function publicRead(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  const body = response.status === 200 ? await response.json() : null;
  return { etag: response.headers.get('etag')!, modelUrl: body?.project.data.models[0].url as string | undefined };
}
const sql = (text: string, values: unknown[]) => server.deps.db.$client.query(text, values);

describe('an uploaded model', () => {
  let id: string;
  let share: string;
  let before: Awaited<ReturnType<typeof publicRead>>;

  it('is pending at once, then ready: smaller, valid, the same outline; its own URL stays the original', async () => {
    share = '';
    const saved = await upload(glb);
    id = saved.id;
    expect(saved.delivery).toEqual({ status: 'pending', sizeBytes: null, originalBytes: glb.byteLength, reason: null });
    const done = await delivered(id);
    expect(done.delivery.status).toBe('ready');
    expect(done.delivery.sizeBytes).toBeLessThan(glb.byteLength);
    expect(done.delivery.originalBytes).toBe(glb.byteLength);
    expect(Buffer.compare(Buffer.from(await bytesAt(done.url)), Buffer.from(glb))).toBe(0);

    const file = await server.deps.storage.read(storageKeys.assetDelivery(owner.workspaceId, id));
    expect(file.byteLength).toBe(done.delivery.sizeBytes);
    const report = await validator.validateBytes(new Uint8Array(file));
    expect(report.issues.numErrors).toBe(0);
    expect(outlineDifference(await glbOutline(glb), await glbOutline(file))).toBeNull();
  });

  it('reaches shoppers through the public read and the BFF, under a new ETag', async () => {
    // The same asset, its delivery file set aside for a moment: what a read gets before it is ready.
    await sql('update assets set delivery_status = $2, delivery_storage_key = null where id = $1', [id, 'pending']);
    share = await sharedProject(id);
    before = await publicRead(server.url, share, PUBLIC_HEADERS);
    expect(Buffer.compare(Buffer.from(await bytesAt(before.modelUrl!)), Buffer.from(glb))).toBe(0);
    const viaBff = await publicRead(bff.url, share);
    expect(viaBff.etag).toBe(before.etag);

    await server.deps.services.deliveries.askFor([id]);
    await waitFor(async () => (await asset(id)).delivery.status === 'ready', 'the delivery file again');
    const after = await waitFor(async () => {
      const read = await publicRead(server.url, share, { ...PUBLIC_HEADERS, 'if-none-match': before.etag });
      return read.modelUrl ? read : null;
    }, 'a new ETag on the public read');
    expect(after.etag).not.toBe(before.etag);
    const served = await bytesAt(after.modelUrl!);
    expect(served.byteLength).toBe((await asset(id)).delivery.sizeBytes);
    const bffRead = await waitFor(async () => {
      const read = await publicRead(bff.url, share, { 'if-none-match': before.etag });
      return read.modelUrl ? read : null;
    }, 'a new ETag at the BFF');
    expect(bffRead.etag).toBe(after.etag);
  });

  it('keeps its delivery file from the storage sweeper, and takes it along when deleted', async () => {
    const key = storageKeys.assetDelivery(owner.workspaceId, id);
    expect(await createStoredFileRepository(server.deps.db).claimed([key])).toEqual(new Set([key]));
    const deleted = await fetch(`${server.url}/assets/${id}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(200);
    await waitFor(async () => (await server.deps.storage.head(key)) === null, 'the delivery file removed');
  });
});

describe('served as uploaded', () => {
  it('a model whose delivery file fails twice says failed, with the reason; the read serves the original', async () => {
    const saved = await upload(glb, 'broken.glb');
    await delivered(saved.id);
    // The stored original becomes unreadable: every try of the job fails.
    await server.deps.storage.put(storageKeys.asset(owner.workspaceId, saved.id), notAModel(), {
      contentType: 'model/gltf-binary',
    });
    await server.deps.services.deliveries.askFor([saved.id]);
    const failed = await waitFor(
      async () => {
        const row = await asset(saved.id);
        return row.delivery.status === 'failed' ? row : null;
      },
      'a failed delivery',
      60_000,
    );
    expect(failed.delivery).toEqual({
      status: 'failed',
      sizeBytes: null,
      originalBytes: glb.byteLength,
      reason: 'making it failed (the optimizer stopped on this model)',
    });
    const read = await publicRead(server.url, await sharedProject(saved.id), PUBLIC_HEADERS);
    expect(new URL(read.modelUrl!).pathname).toContain(`${saved.id}.glb`);
    // The delivery file made before is no longer served, and goes.
    const madeBefore = storageKeys.assetDelivery(owner.workspaceId, saved.id);
    await waitFor(async () => (await server.deps.storage.head(madeBefore)) === null, 'the old delivery file removed');
  }, 90_000);
});

describe('assets saved before delivery files', () => {
  const forget = (ids: string[]) =>
    sql(
      `update assets set delivery_status = null, delivery_storage_key = null, delivery_size_bytes = null
        where id = any($1)`,
      [ids],
    );

  it('get theirs when a public read serves them, in the background', async () => {
    const saved = await upload(glb, 'old.glb');
    await delivered(saved.id);
    await forget([saved.id]);
    const share = await sharedProject(saved.id);
    const first = await publicRead(server.url, share, PUBLIC_HEADERS);
    expect(new URL(first.modelUrl!).pathname).toContain(`${saved.id}.glb`);
    await waitFor(async () => (await asset(saved.id)).delivery.status === 'ready', 'the lazily asked delivery file');
  });

  it('get theirs from `npm run admin -- delivery --all`, and one asset from its id', async () => {
    const a = await upload(glb, 'a.glb');
    const b = await upload(glb, 'b.glb');
    await Promise.all([delivered(a.id), delivered(b.id)]);
    await forget([a.id, b.id]);
    await sql("update assets set delivery_status = 'ready' where id <> all($1)", [[a.id, b.id]]);
    const all = await runTs('server/cli/admin.ts', ['delivery', '--all'], server.env.env);
    expect(all.stderr).toBe('');
    expect(JSON.parse(all.stdout)).toEqual({ queued: 2 });
    for (const each of [a, b]) await waitFor(async () => (await asset(each.id)).delivery.status === 'ready', 'ready');

    const one = await runTs('server/cli/admin.ts', ['delivery', a.id], server.env.env);
    expect(JSON.parse(one.stdout)).toEqual({ queued: 1 });
    const unknown = await runTs(
      'server/cli/admin.ts',
      ['delivery', '00000000-0000-4000-8000-000000000000'],
      server.env.env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: no asset 00000000-0000-4000-8000-000000000000/);
    const neither = await runTs('server/cli/admin.ts', ['delivery'], server.env.env);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toMatch(/delivery needs either --all or asset ids/);
  }, 90_000);
});
