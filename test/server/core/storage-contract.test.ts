import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createStorage, type StorageDriver } from '#core/platform/storage/index.js';
import { loadWorkerConfig } from '../../../worker/config.js';
import { startS3Server, type TestS3Server } from '../../helpers/s3-server.js';

/**
 * The storage contract, run against both drivers: local disk, and S3 against a real S3 REST
 * server (s3rver). Every file the product writes goes through these calls.
 */
const MiB = 1024 * 1024;

/** A stream of `size` pseudo-random bytes made chunk by chunk (never held whole), and its SHA-256. */
function generatedStream(size: number, chunk = MiB) {
  const hash = createHash('sha256');
  let left = size;
  const stream = new Readable({
    read() {
      if (left === 0) return this.push(null);
      const part = randomBytes(Math.min(chunk, left));
      left -= part.byteLength;
      hash.update(part);
      this.push(part);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

async function sha256Of(stream: Readable): Promise<{ hex: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).byteLength;
  }
  return { hex: hash.digest('hex'), bytes };
}

/** Runs `work` while sampling the process's memory; answers the highest growth seen, in bytes. */
async function peakMemoryGrowth(work: () => Promise<void>): Promise<number> {
  globalThis.gc?.();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const before = used();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, used()) - before;
}

let s3: TestS3Server;
let folder: string;
const drivers: Record<string, StorageDriver> = {};

beforeAll(async () => {
  s3 = await startS3Server();
  folder = await mkdtemp(path.join(tmpdir(), 'cs-storage-contract-'));
  drivers.local = createStorage(loadWorkerConfig({ STORAGE_DIR: folder }));
  drivers.s3 = createStorage(loadWorkerConfig({ ...s3.env, S3_PREFIX: 'tenant-a/' }));
});

afterAll(async () => {
  await Promise.all(Object.values(drivers).map((driver) => driver.close()));
  await s3.close();
  await rm(folder, { recursive: true, force: true });
});

describe.each(['local', 's3'])('storage driver %s', (name) => {
  const storage = () => drivers[name]!;

  it('answers check() when usable', async () => {
    await expect(storage().check()).resolves.toBeUndefined();
  });

  it('puts bytes and gives them back whole, streamed and by head, with type and length', async () => {
    const key = 'workspaces/w1/assets/a1.glb';
    const bytes = randomBytes(70_000);
    await storage().put(key, bytes, { contentType: 'model/gltf-binary' });

    expect((await storage().read(key)).equals(bytes)).toBe(true);
    const head = await storage().head(key);
    expect(head).toMatchObject({ size: bytes.byteLength, contentType: 'model/gltf-binary' });
    expect(head!.etag).toMatch(/^".+"$/);
    expect(head!.lastModified.getTime()).toBeGreaterThan(Date.now() - 60_000);

    const got = await storage().get(key);
    expect(got).toMatchObject({ size: bytes.byteLength, contentType: 'model/gltf-binary', etag: head!.etag });
    const streamed = await sha256Of(got!.body);
    expect(streamed).toEqual({ hex: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength });
  });

  it('reads a byte range', async () => {
    const key = 'workspaces/w1/requests/r1/request.pdf';
    const bytes = randomBytes(10_000);
    await storage().put(key, bytes, { contentType: 'application/pdf' });
    const part = await storage().get(key, { start: 100, end: 1099 });
    const chunks: Buffer[] = [];
    for await (const chunk of part!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes.subarray(100, 1100))).toBe(true);
  });

  it('replaces an object put twice, and deletes (twice is no error)', async () => {
    const key = 'workspaces/w1/requests/r2/screenshot-1.png';
    await storage().put(key, Buffer.from('first'), { contentType: 'image/png' });
    await storage().put(key, Buffer.from('second version'), { contentType: 'image/png' });
    expect((await storage().read(key)).toString()).toBe('second version');
    await storage().delete(key);
    expect(await storage().head(key)).toBeNull();
    await expect(storage().delete(key)).resolves.toBeUndefined();
  });

  it('answers a missing key with null from get and head, and a rejection from read', async () => {
    const key = 'workspaces/w1/assets/never-written.glb';
    expect(await storage().get(key)).toBeNull();
    expect(await storage().head(key)).toBeNull();
    await expect(storage().read(key)).rejects.toThrow();
  });

  it('lists what is under a prefix, with sizes', async () => {
    await storage().put('workspaces/list/assets/x.glb', Buffer.alloc(3), { contentType: 'model/gltf-binary' });
    await storage().put('workspaces/list/requests/r/request.pdf', Buffer.alloc(5), { contentType: 'application/pdf' });
    await storage().put('workspaces/listing-other/assets/y.glb', Buffer.alloc(1), { contentType: 'model/gltf-binary' });
    const listed = [];
    for await (const object of storage().list('workspaces/list/')) listed.push({ key: object.key, size: object.size });
    expect(listed.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'workspaces/list/assets/x.glb', size: 3 },
      { key: 'workspaces/list/requests/r/request.pdf', size: 5 },
    ]);
  });

  it('refuses unsafe keys before touching the store', async () => {
    await expect(storage().put('../escape.txt', Buffer.alloc(1), { contentType: 'text/plain' })).rejects.toThrow(
      /unsafe storage key/,
    );
    await expect(storage().get('a/../../b')).rejects.toThrow(/unsafe storage key/);
    await expect(storage().delete('/etc/hostname')).rejects.toThrow(/unsafe storage key/);
  });

  it('leaves no object when a streamed put fails midway or its length is wrong', async () => {
    const key = 'workspaces/w1/assets/interrupted.glb';
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent >= 3) return this.destroy(new Error('client went away'));
        sent++;
        this.push(randomBytes(MiB));
      },
    });
    await expect(storage().put(key, failing, { contentType: 'model/gltf-binary' })).rejects.toThrow();
    expect(await storage().head(key)).toBeNull();

    await expect(
      storage().put(key, Readable.from([Buffer.alloc(10)]), { contentType: 'model/gltf-binary', contentLength: 11 }),
    ).rejects.toThrow(/announced/);
    expect(await storage().head(key)).toBeNull();
  });

  it('streams a large file in and out in bounded memory', async () => {
    const key = 'workspaces/w1/assets/large.glb';
    const size = 160 * MiB;
    const source = generatedStream(size);
    const putGrowth = await peakMemoryGrowth(() =>
      storage().put(key, source.stream, { contentType: 'model/gltf-binary', contentLength: size }),
    );
    expect((await storage().head(key))!.size).toBe(size);

    let read = { hex: '', bytes: 0 };
    const getGrowth = await peakMemoryGrowth(async () => {
      read = await sha256Of((await storage().get(key))!.body);
    });
    expect(read).toEqual({ hex: source.digest(), bytes: size });
    // Far below the file's size: parts of 8 MiB, two in flight, plus stream buffers and garbage
    // not yet collected (a driver holding the file would grow by 160 MiB or more).
    expect(putGrowth).toBeLessThan(80 * MiB);
    expect(getGrowth).toBeLessThan(80 * MiB);
    await storage().delete(key);
  }, 120_000);
});

describe('S3 bucket checks', () => {
  it('names the problem when the bucket does not exist', async () => {
    const missing = createStorage(loadWorkerConfig({ ...s3.env, S3_BUCKET: 'no-such-bucket' }));
    await expect(missing.check()).rejects.toThrow(
      /bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist: create it or fix S3_BUCKET/,
    );
    await missing.close();
  });

  it('names the endpoint when nothing answers there, and every call is then a storage-unavailable error', async () => {
    const gone = createStorage(loadWorkerConfig({ ...s3.env, S3_ENDPOINT: 'http://127.0.0.1:9' }));
    await expect(gone.check()).rejects.toThrow(/cannot be reached .*check S3_ENDPOINT/);
    await expect(
      gone.put('workspaces/w/assets/a.glb', Buffer.alloc(1), { contentType: 'model/gltf-binary' }),
    ).rejects.toMatchObject({ name: 'StorageUnavailableError' });
    await gone.close();
  }, 30_000);

  it('keeps every key under S3_PREFIX, so a bucket can hold several installations', async () => {
    const unprefixed = createStorage(loadWorkerConfig({ ...s3.env }));
    await drivers.s3!.put('workspaces/w9/assets/p.glb', Buffer.from('x'), { contentType: 'model/gltf-binary' });
    expect(await unprefixed.head('tenant-a/workspaces/w9/assets/p.glb')).toMatchObject({ size: 1 });
    expect(await unprefixed.head('workspaces/w9/assets/p.glb')).toBeNull();
    await unprefixed.close();
  });
});
