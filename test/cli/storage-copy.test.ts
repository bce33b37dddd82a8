import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createLocalDriver } from '#core/platform/storage/local-driver.js';
import { createStorage, type StorageDriver } from '#core/platform/storage/index.js';
import { loadWorkerConfig } from '../../worker/config.js';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.js';
import { runTs } from './run-command.js';

/** `npm run storage:copy`: a local store into a bucket (s3rver), as a child process. */
let s3: TestS3Server;
let folder: string;
let bucket: StorageDriver;
const files: Record<string, Buffer> = {
  'workspaces/w1/assets/a1.glb': randomBytes(200_000),
  'workspaces/w1/requests/r1/request.pdf': randomBytes(3000),
  'workspaces/w1/requests/r1/screenshot-1.png': randomBytes(500),
  'workspaces/w2/projects/p1/models/chair.glb': randomBytes(1000),
};
// The bucket's settings, with STORAGE_DRIVER left local: the command needs only S3_*.
const copy = (args: string[] = []) => {
  const { STORAGE_DRIVER: _driver, ...bucketEnv } = s3.env;
  return runTs('server/cli/storage-copy.ts', ['--from', folder, ...args], { ...bucketEnv, S3_PREFIX: 'moved/' });
};

beforeAll(async () => {
  s3 = await startS3Server();
  folder = await mkdtemp(path.join(tmpdir(), 'cs-copy-'));
  const local = createLocalDriver(folder);
  for (const [key, bytes] of Object.entries(files))
    await local.put(key, bytes, { contentType: 'application/octet-stream' });
  // A write that was interrupted: never copied.
  await mkdir(path.join(folder, 'workspaces/w1/assets'), { recursive: true });
  await writeFile(path.join(folder, 'workspaces/w1/assets/a2.glb.0b1c.tmp'), 'half a file');
  bucket = createStorage(loadWorkerConfig({ ...s3.env, S3_PREFIX: 'moved/' }));
});
afterAll(async () => {
  await bucket.close();
  await s3.close();
  await rm(folder, { recursive: true, force: true });
});

describe('npm run storage:copy', () => {
  it('lists without writing on --dry-run', async () => {
    const res = await copy(['--dry-run']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ dryRun: true, copied: 4, skipped: 0, failed: 0 });
    expect(await bucket.head('workspaces/w1/assets/a1.glb')).toBeNull();
  });

  it('copies every file with its bytes and content type, and none of the temporary ones', async () => {
    const res = await copy();
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      bucket: s3.bucket,
      prefix: 'moved/',
      copied: 4,
      skipped: 0,
      failed: 0,
      bytes: 204_500,
    });
    for (const [key, bytes] of Object.entries(files)) expect((await bucket.read(key)).equals(bytes)).toBe(true);
    expect(await bucket.head('workspaces/w1/assets/a1.glb')).toMatchObject({ contentType: 'model/gltf-binary' });
    expect(await bucket.head('workspaces/w1/requests/r1/request.pdf')).toMatchObject({
      contentType: 'application/pdf',
    });
    const keys = [];
    for await (const object of bucket.list('')) keys.push(object.key);
    expect(keys.sort()).toEqual(Object.keys(files).sort());
  });

  it('copies only what is new or changed when run again', async () => {
    expect(JSON.parse((await copy()).stdout)).toMatchObject({ copied: 0, skipped: 4 });
    const added = randomBytes(64);
    await createLocalDriver(folder).put('workspaces/w3/assets/new.glb', added, { contentType: 'model/gltf-binary' });
    expect(JSON.parse((await copy()).stdout)).toMatchObject({ copied: 1, skipped: 4 });
    expect((await bucket.read('workspaces/w3/assets/new.glb')).equals(added)).toBe(true);
  });

  it('stops with one clear line when the bucket cannot be reached, and on bad arguments', async () => {
    const { STORAGE_DRIVER: _driver, ...bucketEnv } = s3.env;
    const unreachable = await runTs('server/cli/storage-copy.ts', ['--from', folder], {
      ...bucketEnv,
      S3_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      new RegExp(
        String.raw`^error: file storage \(STORAGE_DRIVER=s3\): bucket "config-share-test" ` +
          String.raw`at http://127\.0\.0\.1:9 cannot be reached`,
        'm',
      ),
    );
    const noBucket = await runTs('server/cli/storage-copy.ts', ['--from', folder], {});
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toMatch(/S3_BUCKET/);
    const bad = await copy(['--concurrency', '0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--concurrency must be a whole number from 1 to 32/);
  }, 60_000);
});
