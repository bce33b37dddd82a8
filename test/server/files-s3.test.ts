import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.js';
import * as fixtures from '../helpers/model-fixtures.js';
import { sweepUnclaimedFiles } from '#core/services/storage-sweep.js';

/**
 * The API on real S3 (s3rver): uploads land in the bucket, `/files/...` checks the signature and redirects to a
 * presigned GET, a lost bucket is a clear 503 that leaves nothing behind, the sweeper removes unclaimed objects.
 */
let s3: TestS3Server;
let server: TestServer;
let owner: TestPerson;
let chairGlb: Uint8Array;

beforeAll(async () => {
  s3 = await startS3Server();
  server = await startTestServer({ ...s3.env, S3_PREFIX: 'install-1/' });
  owner = await server.person('s3-owner@example.com');
  chairGlb = await fixtures.chairGlb();
});
afterAll(async () => {
  await server.close();
  await s3.close();
});

const upload = (bytes: Uint8Array, fileName: string) =>
  fetch(`${server.url}/assets`, { method: 'POST', headers: owner.headers, body: fixtures.uploadForm(bytes, fileName) });

async function assetCount(): Promise<number> {
  const { rows } = await server.deps.db.$client.query<{ n: number }>(
    'select count(*)::int as n from assets where workspace_id = $1',
    [owner.workspaceId],
  );
  return rows[0]!.n;
}

describe('files on S3', () => {
  let assetUrl: string;
  let assetKey: string;

  it('stores an uploaded asset in the bucket, with its content type and length', async () => {
    const res = await upload(chairGlb, 'chair.glb');
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    assetUrl = body.asset.url;
    assetKey = `workspaces/${owner.workspaceId}/assets/${body.asset.id}.glb`;
    // The same signed URL shape as on local disk: the server's /files/ route, not the bucket.
    expect(assetUrl).toMatch(new RegExp(`^${server.url}/files/${assetKey}\\?exp=\\d+&sig=`));
    expect(await server.deps.storage.head(assetKey)).toMatchObject({
      size: chairGlb.byteLength,
      contentType: 'model/gltf-binary',
    });
  });

  it('answers a signed URL with 302 to a short-lived presigned GET that returns the same bytes', async () => {
    const res = await fetch(assetUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(s3.endpoint);
    expect(location.pathname).toBe(`/${s3.bucket}/install-1/${assetKey}`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    const object = await fetch(location);
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('model/gltf-binary');
    expect(Buffer.from(await object.arrayBuffer()).equals(Buffer.from(chairGlb))).toBe(true);

    const head = await fetch(assetUrl, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toMatch(new RegExp(`^${s3.endpoint}/`));
  });

  it('refuses tampered and expired signatures before any redirect', async () => {
    const tampered = new URL(assetUrl);
    tampered.searchParams.set('sig', `${tampered.searchParams.get('sig')!.slice(0, -2)}xx`);
    const expired = new URL(server.deps.signer.sign(assetKey, Math.floor(Date.now() / 1000) - 5));
    const otherKey = new URL(assetUrl.replace(/assets\/[^.]+\.glb/, 'assets/00000000-0000-4000-8000-000000000000.glb'));
    for (const url of [tampered, expired, otherKey]) {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(403);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toMatchObject({ success: false, error: 'forbidden' });
    }
  });

  it("removes an asset's object when the asset is deleted", async () => {
    const id = assetKey.split('/').at(-1)!.replace('.glb', '');
    const res = await fetch(`${server.url}/assets/${id}`, { method: 'DELETE', headers: owner.headers });
    expect(res.status).toBe(200);
    await expect.poll(() => server.deps.storage.head(assetKey)).toBeNull();
  });

  it('sweeps objects no row claims once they are past the grace period, and nothing else', async () => {
    const claimedRes = await upload(chairGlb, 'kept.glb');
    const kept = `workspaces/${owner.workspaceId}/assets/${(await claimedRes.json()).asset.id}.glb`;
    const orphan = `workspaces/${owner.workspaceId}/assets/00000000-0000-4000-8000-00000000dead.glb`;
    const orphanPdf = `workspaces/${owner.workspaceId}/requests/00000000-0000-4000-8000-00000000beef/request.pdf`;
    const projectId = '00000000-0000-4000-8000-000000000001';
    const projectFile = `workspaces/${owner.workspaceId}/projects/${projectId}/models/chair.glb`;
    for (const key of [orphan, orphanPdf, projectFile])
      await server.deps.storage.put(key, Buffer.from('x'), { contentType: 'application/octet-stream' });

    // Inside the grace period nothing goes, claimed or not.
    expect((await sweepUnclaimedFiles(server.deps, { graceMs: 60_000 })).removed).toEqual([]);
    // Past it, only what no row claims, among the keys the product writes (project files stay).
    const swept = await sweepUnclaimedFiles(server.deps, { graceMs: 0, now: Date.now() + 1000 });
    expect(swept.removed.sort()).toEqual([orphan, orphanPdf].sort());
    expect(await server.deps.storage.head(kept)).not.toBeNull();
    expect(await server.deps.storage.head(projectFile)).not.toBeNull();
    expect(await server.deps.storage.head(orphan)).toBeNull();
  });

  it('answers /ready with 200 while the bucket answers', async () => {
    const res = await fetch(`${server.url}/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: 'ok' });
  });

  it('answers an upload with a clear 503 when the bucket has gone, and keeps no row', async () => {
    const before = await assetCount();
    await s3.kill();
    const res = await upload(chairGlb, 'while-down.glb');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ success: false, error: 'unavailable' });
    expect(await assetCount()).toBe(before);

    // /health is Postgres and Redis (docs/architecture.md, Health and shutdown); /ready names the store.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const ready = await fetch(`${server.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ success: false, error: 'unavailable', failing: ['storage'] });

    // Back: nothing half-written in the bucket, every object belongs to a row, and uploads work again.
    await s3.restart();
    const keys: string[] = [];
    for await (const object of server.deps.storage.list(`workspaces/${owner.workspaceId}/assets/`))
      keys.push(object.key);
    const { rows } = await server.deps.db.$client.query<{ storage_key: string }>(
      'select storage_key from assets where workspace_id = $1',
      [owner.workspaceId],
    );
    expect(keys.sort()).toEqual(rows.map((r) => r.storage_key).sort());
    expect((await upload(chairGlb, 'after.glb')).status).toBe(201);
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
  }, 30_000);
});
