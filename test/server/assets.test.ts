import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import * as fixtures from '../helpers/model-fixtures.js';

let server: TestServer;
let chairGlb: Uint8Array;

beforeAll(async () => {
  server = await startTestServer();
  chairGlb = await fixtures.chairGlb();
});
afterAll(() => server.close());

/** Every file in the storage folder, as storage keys. */
async function storedKeys(): Promise<string[]> {
  const entries = await readdir(server.env.storageDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(server.env.storageDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

async function assetRows(workspaceId: string): Promise<number> {
  const { rows } = await server.deps.db.$client.query<{ n: number }>(
    'select count(*)::int as n from assets where workspace_id = $1',
    [workspaceId],
  );
  return rows[0].n;
}

function upload(person: TestPerson, bytes: Uint8Array, fileName: string, name?: string) {
  return fetch(`${server.url}/assets`, {
    method: 'POST',
    headers: person.headers,
    body: fixtures.uploadForm(bytes, fileName, name),
  });
}

async function uploadOk(person: TestPerson, bytes: Uint8Array, fileName: string, name?: string) {
  const res = await upload(person, bytes, fileName, name);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.asset;
}

/** Bytes behind a signed URL. */
async function download(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe('POST /assets', () => {
  it('stores a .glb as uploaded and answers 201 with the asset', async () => {
    const owner = await server.person('glb@example.com');
    const res = await upload(owner, chairGlb, 'Office Chair.glb');
    expect(res.status).toBe(201);
    const { success, asset } = await res.json();
    expect(success).toBe(true);
    expect(asset).toMatchObject({
      name: 'Office Chair',
      fileName: 'Office Chair.glb',
      contentType: 'model/gltf-binary',
      sizeBytes: chairGlb.byteLength,
      sourceFormat: 'glb',
      externalSource: null,
      readinessScore: null,
      readinessLevel: null,
    });
    expect(asset.modelInfo).toMatchObject({ numWarnings: 0, materialCount: 2, totalTriangleCount: 24 });
    expect(asset.url).toMatch(
      new RegExp(`^${server.url}/files/workspaces/${owner.workspaceId}/assets/${asset.id}\\.glb\\?exp=\\d+&sig=`),
    );
    const exp = Number(new URL(asset.url).searchParams.get('exp'));
    expect(exp - Date.now() / 1000).toBeGreaterThan(3500);
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(3600);
    expect(Buffer.from(await download(asset.url)).equals(Buffer.from(chairGlb))).toBe(true);
    expect(await storedKeys()).toContain(`workspaces/${owner.workspaceId}/assets/${asset.id}.glb`);
    expect(await assetRows(owner.workspaceId)).toBe(1);
  });

  it('converts a .gltf with embedded buffers and a zipped .gltf with its resources to GLB', async () => {
    const owner = await server.person('convert@example.com');
    const gltf = await uploadOk(owner, await fixtures.chairGltfEmbedded(), 'chair.gltf', '  Dining chair  ');
    expect(gltf).toMatchObject({ name: 'Dining chair', fileName: 'chair.glb', sourceFormat: 'gltf' });
    const zipped = await uploadOk(owner, await fixtures.chairZip(), 'scene-pack.zip');
    expect(zipped).toMatchObject({ name: 'scene-pack', fileName: 'scene-pack.glb', sourceFormat: 'zip' });
    const glbInZip = await uploadOk(owner, await fixtures.chairGlbZip(), 'packed.zip');
    expect(glbInZip.sourceFormat).toBe('zip');
    for (const asset of [gltf, zipped, glbInZip]) {
      const stored = await download(asset.url);
      expect(stored.byteLength).toBe(asset.sizeBytes);
      const doc = await new NodeIO().readBinary(stored);
      expect(
        doc
          .getRoot()
          .listNodes()
          .map((n) => n.getName()),
      ).toContain('Seat');
      expect(doc.getRoot().listTextures()).toHaveLength(1);
    }
    expect(await assetRows(owner.workspaceId)).toBe(3);
  });

  describe('refuses hostile and broken files, leaving nothing in storage or the database', () => {
    const cases: Array<{
      title: string;
      file: () => Promise<Uint8Array> | Uint8Array;
      fileName: string;
      status: number;
      code: string;
      issue?: string;
    }> = [
      {
        title: 'a non-glTF file renamed .glb',
        file: fixtures.notAModel,
        fileName: 'chair.glb',
        status: 422,
        code: 'invalid_file',
        issue: 'NOT_GLTF',
      },
      {
        title: 'an unsupported extension',
        file: fixtures.chairGlb,
        fileName: 'chair.fbx',
        status: 422,
        code: 'invalid_file',
        issue: 'UNSUPPORTED_FILE_TYPE',
      },
      {
        title: 'validator errors (accessor out of buffer bounds)',
        file: async () => fixtures.jsonBytes(await fixtures.outOfBoundsGltf()),
        fileName: 'broken.gltf',
        status: 422,
        code: 'invalid_file',
        issue: 'ACCESSOR_TOO_LONG',
      },
      {
        title: 'a zip slip entry ../x.gltf',
        file: fixtures.zipSlip,
        fileName: 'slip.zip',
        status: 422,
        code: 'invalid_file',
        issue: 'ZIP_PATH_ESCAPE',
      },
      {
        title: 'a nested archive',
        file: fixtures.nestedZip,
        fileName: 'nested.zip',
        status: 422,
        code: 'invalid_file',
        issue: 'ZIP_NESTED_ARCHIVE',
      },
      {
        title: 'a zip bomb past the size limits',
        file: () => fixtures.zipBomb(60),
        fileName: 'bomb.zip',
        status: 413,
        code: 'too_large',
      },
      {
        title: 'a zip bomb whose size fields lie',
        file: () => fixtures.lyingZipBomb(20, 1000),
        fileName: 'liar.zip',
        status: 422,
        code: 'invalid_file',
        issue: 'ZIP_CORRUPT',
      },
      {
        title: 'a .gltf referencing ../../etc/hostname',
        file: async () => fixtures.jsonBytes(await fixtures.traversalGltf()),
        fileName: 'trav.gltf',
        status: 422,
        code: 'invalid_file',
        issue: 'EXTERNAL_RESOURCE',
      },
      {
        title: 'a zipped .gltf referencing ../../etc/hostname',
        file: fixtures.traversalZip,
        fileName: 'trav.zip',
        status: 422,
        code: 'invalid_file',
        issue: 'RESOURCE_PATH_ESCAPE',
      },
      {
        title: 'a model that cannot be converted',
        file: fixtures.unknownExtensionGltf,
        fileName: 'odd.gltf',
        status: 422,
        code: 'conversion_failed',
      },
      {
        title: 'a 60 MB file',
        file: () => fixtures.hugeFile(60),
        fileName: 'huge.glb',
        status: 413,
        code: 'too_large',
      },
    ];

    let owner: TestPerson;
    beforeAll(async () => {
      owner = await server.person('hostile@example.com');
    });

    for (const c of cases) {
      it(c.title, async () => {
        const before = await storedKeys();
        const res = await upload(owner, await c.file(), c.fileName);
        const body = await res.json();
        expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(c.status);
        expect(body).toMatchObject({ success: false, error: c.code });
        expect(typeof body.message).toBe('string');
        if (c.issue) expect(body.details.messages.map((m: { code: string }) => m.code)).toContain(c.issue);
        expect(await storedKeys()).toEqual(before);
        expect(await assetRows(owner.workspaceId)).toBe(0);
      });
    }

    it('a request without a file part (400) or that is not multipart (415)', async () => {
      const form = new FormData();
      form.append('name', 'No file here');
      const noFile = await fetch(`${server.url}/assets`, { method: 'POST', headers: owner.headers, body: form });
      expect(noFile.status).toBe(400);
      expect(await noFile.json()).toMatchObject({ success: false, error: 'invalid_request' });
      const json = await fetch(`${server.url}/assets`, {
        method: 'POST',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        body: '{"file":"x"}',
      });
      expect(json.status).toBe(415);
      expect(await assetRows(owner.workspaceId)).toBe(0);
    });

    it('two files in one upload (400), and nothing is stored', async () => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from(await fixtures.chairGlb())]), 'a.glb');
      form.append('file', new Blob([Buffer.from(await fixtures.chairGlb())]), 'b.glb');
      const res = await fetch(`${server.url}/assets`, { method: 'POST', headers: owner.headers, body: form });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        success: false,
        error: 'invalid_request',
        message: 'Send one file per upload.',
      });
      expect(await assetRows(owner.workspaceId)).toBe(0);
    });

    it('a file in another field is not taken for the model', async () => {
      const form = new FormData();
      form.append('model', new Blob([new Uint8Array(chairGlb)]), 'chair.glb');
      const res = await fetch(`${server.url}/assets`, { method: 'POST', headers: owner.headers, body: form });
      expect(res.status).toBe(400);
      expect(await assetRows(owner.workspaceId)).toBe(0);
    });
  });

  it('enforces the plan model limit with 403 quota_exceeded', async () => {
    const owner = await server.person('quota@example.com');
    await server.deps.db.$client.query('update workspaces set model_limit = 1 where id = $1', [owner.workspaceId]);
    await uploadOk(owner, chairGlb, 'first.glb');
    const before = await storedKeys();
    const res = await upload(owner, chairGlb, 'second.glb');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ success: false, error: 'quota_exceeded' });
    expect(await assetRows(owner.workspaceId)).toBe(1);
    expect(await storedKeys()).toEqual(before);
  });

  it('lets only one of two simultaneous uploads take the last slot', async () => {
    const owner = await server.person('race@example.com');
    await server.deps.db.$client.query('update workspaces set model_limit = 1 where id = $1', [owner.workspaceId]);
    const before = await storedKeys();
    const answers = await Promise.all([
      upload(owner, chairGlb, 'a.glb'),
      upload(owner, await fixtures.chairGltfEmbedded(), 'b.gltf'),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 403]);
    expect(await assetRows(owner.workspaceId)).toBe(1);
    expect((await storedKeys()).length).toBe(before.length + 1);
  });
});

describe('saving an asset', () => {
  it('removes the written file again when the database insert fails', async () => {
    const owner = await server.person('insert-fails@example.com');
    const existing = await uploadOk(owner, chairGlb, 'existing.glb');
    const storageKey = `workspaces/${owner.workspaceId}/assets/retry.glb`;
    const values = {
      id: existing.id,
      storageKey,
      name: 'dup',
      fileName: 'dup.glb',
      sizeBytes: 1,
      sourceFormat: 'glb' as const,
      modelInfo: {},
    };
    // The id is taken: the insert violates the primary key after the file was written.
    await expect(server.deps.services.assets.createWithFile(owner.workspaceId, values, chairGlb)).rejects.toThrow();
    expect(await storedKeys()).not.toContain(storageKey);
    expect(await assetRows(owner.workspaceId)).toBe(1);
  });
});

describe('GET /assets and DELETE /assets/:id', () => {
  it('lists newest first with cursor pagination', async () => {
    const owner = await server.person('list@example.com');
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) ids.push((await uploadOk(owner, chairGlb, `${name}.glb`)).id);

    const first = await fetch(`${server.url}/assets?limit=2`, { headers: owner.headers });
    expect(first.status).toBe(200);
    const page1 = await first.json();
    expect(page1.success).toBe(true);
    expect(page1.assets.map((a: { name: string }) => a.name)).toEqual(['three', 'two']);
    expect(page1.assets[0]).toMatchObject({
      externalSource: null,
      readinessScore: null,
      readinessLevel: null,
      sourceFormat: 'glb',
    });
    expect(page1.assets[0].url).toContain('/files/');
    expect(page1.nextCursor).toEqual(expect.any(String));

    const page2 = await (
      await fetch(`${server.url}/assets?limit=2&cursor=${encodeURIComponent(page1.nextCursor)}`, {
        headers: owner.headers,
      })
    ).json();
    expect(page2.assets.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect(page2.nextCursor).toBeNull();

    const bad = await fetch(`${server.url}/assets?cursor=not-a-cursor`, { headers: owner.headers });
    expect(bad.status).toBe(400);
  });

  it('reads one asset and deletes it with its file', async () => {
    const owner = await server.person('delete@example.com');
    const asset = await uploadOk(owner, chairGlb, 'gone.glb');
    const storageKey = `workspaces/${owner.workspaceId}/assets/${asset.id}.glb`;

    const read = await fetch(`${server.url}/assets/${asset.id}`, { headers: owner.headers });
    expect(read.status).toBe(200);
    expect((await read.json()).asset).toMatchObject({ id: asset.id, name: 'gone', sizeBytes: chairGlb.byteLength });

    const deleted = await fetch(`${server.url}/assets/${asset.id}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true });
    expect(await storedKeys()).not.toContain(storageKey);
    expect(await assetRows(owner.workspaceId)).toBe(0);
    expect((await fetch(`${server.url}/assets/${asset.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await fetch(`${server.url}/assets/${asset.id}`, { method: 'DELETE', headers: owner.headers })).status).toBe(
      404,
    );
    // The signed URL handed out earlier now finds nothing.
    expect((await fetch(asset.url)).status).toBe(404);
  });
});

describe('asset permissions', () => {
  let owner: TestPerson;
  let viewer: TestPerson;
  let stranger: TestPerson;
  let assetId: string;

  beforeAll(async () => {
    owner = await server.person('perm-owner@example.com');
    viewer = await server.member(owner.workspaceId, 'perm-viewer@example.com', 'viewer');
    stranger = await server.person('perm-stranger@example.com');
    assetId = (await uploadOk(owner, chairGlb, 'shared.glb')).id;
  });

  it('lets a viewer read but not upload or delete', async () => {
    const list = await (await fetch(`${server.url}/assets`, { headers: viewer.headers })).json();
    expect(list.assets.map((a: { id: string }) => a.id)).toEqual([assetId]);
    expect((await fetch(`${server.url}/assets/${assetId}`, { headers: viewer.headers })).status).toBe(200);

    const post = await upload(viewer, chairGlb, 'viewer.glb');
    expect(post.status).toBe(403);
    expect((await post.json()).error).toBe('forbidden');
    const del = await fetch(`${server.url}/assets/${assetId}`, { method: 'DELETE', headers: viewer.headers });
    expect(del.status).toBe(403);
    expect(await assetRows(owner.workspaceId)).toBe(1);
  });

  it('hides the asset from another workspace with 404', async () => {
    const read = await fetch(`${server.url}/assets/${assetId}`, { headers: stranger.headers });
    expect(read.status).toBe(404);
    expect((await read.json()).error).toBe('not_found');
    expect(
      (await fetch(`${server.url}/assets/${assetId}`, { method: 'DELETE', headers: stranger.headers })).status,
    ).toBe(404);
    const list = await (await fetch(`${server.url}/assets`, { headers: stranger.headers })).json();
    expect(list.assets).toEqual([]);
    expect(await assetRows(owner.workspaceId)).toBe(1);
  });

  it('asks for credentials with 401', async () => {
    expect((await fetch(`${server.url}/assets`)).status).toBe(401);
    const res = await fetch(`${server.url}/assets`, {
      method: 'POST',
      body: fixtures.uploadForm(chairGlb, 'anon.glb'),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('unauthorized');
  });
});

describe('upload rate limit', () => {
  it('refuses uploads past RATE_LIMIT_UPLOAD per workspace with 429 and Retry-After', async () => {
    const limited = await startTestServer({ RATE_LIMIT_UPLOAD: '2/1m' });
    try {
      const person = await limited.person('busy@example.com');
      const other = await limited.person('calm@example.com');
      const glb = await fixtures.chairGlb();
      const upload = (who: TestPerson) =>
        fetch(`${limited.url}/assets`, {
          method: 'POST',
          headers: who.headers,
          body: fixtures.uploadForm(glb, 'chair.glb'),
        });
      expect((await upload(person)).status).toBe(201);
      expect((await upload(person)).status).toBe(201);
      const refused = await upload(person);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).error).toBe('rate_limited');
      // Another workspace has its own budget.
      expect((await upload(other)).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('uploads in progress', () => {
  it('answers 503 with Retry-After past two uploads at once, and takes uploads again after', async () => {
    const http = await import('node:http');
    const owner = await server.person('busy-uploads@example.com');
    const stalledRequests: import('node:http').ClientRequest[] = [];
    const boundary = 'cs-test-boundary';
    // Two uploads whose bodies stall half-way: they hold both places.
    const stalled = [0, 1].map(
      () =>
        new Promise<void>((resolve) => {
          const req = http.request(`${server.url}/assets`, {
            method: 'POST',
            headers: {
              ...owner.headers,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': '1000000',
            },
          });
          req.on('error', () => resolve());
          req.on('close', () => resolve());
          req.write(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.glb"\r\nContent-Type: ` +
              `model/gltf-binary\r\n\r\nglTF`,
          );
          stalledRequests.push(req);
        }),
    );
    // A probe without a file answers 400 while a place is free, 503 once both stalled uploads hold theirs.
    const probe = async () =>
      (await fetch(`${server.url}/assets`, { method: 'POST', headers: owner.headers, body: new FormData() })).status;
    await expect.poll(probe, { timeout: 10_000, interval: 20 }).toBe(503);
    const glb = await fixtures.chairGlb();
    const busy = await fetch(`${server.url}/assets`, {
      method: 'POST',
      headers: owner.headers,
      body: fixtures.uploadForm(glb, 'chair.glb'),
    });
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect((await busy.json()).error).toBe('unavailable');

    for (const req of stalledRequests) req.destroy();
    await Promise.all(stalled);
    await expect.poll(probe, { timeout: 10_000, interval: 20 }).not.toBe(503);
    const again = await fetch(`${server.url}/assets`, {
      method: 'POST',
      headers: owner.headers,
      body: fixtures.uploadForm(glb, 'chair.glb'),
    });
    expect(again.status).toBe(201);
  });
});
