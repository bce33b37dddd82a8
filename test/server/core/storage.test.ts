import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ConfigError } from '#core/platform/config/settings.js';
import { loadWorkerConfig } from '../../../worker/config.js';
import { assertSafeKey, createStorage, isSafeKey, storageKeys } from '#core/platform/storage/index.js';
import { createLocalDriver } from '#core/platform/storage/local-driver.js';
import {
  MODEL_URL_LIFETIME_SECONDS,
  SIGNING_WINDOW_SECONDS,
  createUrlSigner,
  signingWindow,
} from '#core/platform/storage/signed-urls.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'cs-storage-unit-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('storage keys', () => {
  it('accepts the keys the product writes and refuses anything that could leave the root', () => {
    for (const key of [
      storageKeys.asset('w1', 'a1'),
      storageKeys.screenshot('w1', 's1', 0, 'png'),
      storageKeys.requestPdf('w1', 's1'),
      storageKeys.projectUpload('w1', 'p1', 'models/chair.glb'),
    ]) {
      expect(isSafeKey(key)).toBe(true);
    }
    for (const key of [
      '',
      '../x',
      'a/../../x',
      '/etc/passwd',
      'a//b',
      'a/./b',
      'a\\b',
      'a/b/',
      'a/%2e%2e/b',
      'a/b\u0000c',
      'C:/x',
    ]) {
      expect(isSafeKey(key)).toBe(false);
      expect(() => assertSafeKey(key)).toThrow(/unsafe storage key/);
    }
  });
});

describe('local driver', () => {
  it('writes, reads, checks and deletes files under its root, leaving no temporary files', async () => {
    const storage = createLocalDriver(root);
    const key = 'workspaces/w1/assets/a1.glb';
    expect(await storage.head(key)).toBeNull();
    await storage.put(key, new Uint8Array([1, 2, 3]), { contentType: 'model/gltf-binary' });
    expect(await storage.head(key)).toMatchObject({ size: 3, contentType: 'model/gltf-binary' });
    expect([...(await storage.read(key))]).toEqual([1, 2, 3]);
    expect(storage.localPath!(key)).toBe(path.join(root, 'workspaces', 'w1', 'assets', 'a1.glb'));
    expect(await readdir(path.join(root, 'workspaces/w1/assets'))).toEqual(['a1.glb']);
    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
    await storage.delete(key); // deleting twice is not an error
  });

  it('removes the folders a delete leaves empty, and only those', async () => {
    const storage = createLocalDriver(root);
    await storage.put('workspaces/w2/requests/r1/screenshot-0.png', new Uint8Array([1]), { contentType: 'image/png' });
    await storage.put('workspaces/w2/requests/r1/request.pdf', new Uint8Array([2]), { contentType: 'application/pdf' });
    await storage.put('workspaces/w2/assets/a.glb', new Uint8Array([3]), { contentType: 'model/gltf-binary' });
    await storage.delete('workspaces/w2/requests/r1/screenshot-0.png');
    expect(await readdir(path.join(root, 'workspaces/w2/requests/r1'))).toEqual(['request.pdf']);
    await storage.delete('workspaces/w2/requests/r1/request.pdf');
    // r1 and requests/ are gone; the workspace folder stays for its asset, and the root stays.
    expect(await readdir(path.join(root, 'workspaces/w2'))).toEqual(['assets']);
    await storage.delete('workspaces/w2/assets/a.glb');
    await expect(readdir(path.join(root, 'workspaces/w2'))).rejects.toThrow(/ENOENT/);
    expect(Array.isArray(await readdir(root))).toBe(true);
    // A write into a pruned folder makes it again.
    await storage.put('workspaces/w2/requests/r2/request.pdf', new Uint8Array([4]), { contentType: 'application/pdf' });
    expect([...(await storage.read('workspaces/w2/requests/r2/request.pdf'))]).toEqual([4]);
  });

  it('refuses unsafe keys on every call', async () => {
    const storage = createLocalDriver(root);
    await expect(storage.put('../escape.txt', new Uint8Array(1), { contentType: 'text/plain' })).rejects.toThrow(
      /unsafe storage key/,
    );
    await expect(storage.read('../../etc/hostname')).rejects.toThrow(/unsafe storage key/);
    await expect(storage.delete('/etc/hostname')).rejects.toThrow(/unsafe storage key/);
    expect(await readdir(path.dirname(root))).not.toContain('escape.txt');
  });

  it('is the driver STORAGE_DRIVER=local picks; s3 needs S3_BUCKET and both keys or neither', () => {
    expect(createStorage(loadWorkerConfig({ STORAGE_DIR: root })).name).toBe('local');
    expect(createStorage(loadWorkerConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'my-bucket' })).name).toBe('s3');
    expect(() => loadWorkerConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET \(STORAGE_DRIVER=s3\) is not set/);
    expect(() => loadWorkerConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'Not_A_Bucket' })).toThrow(ConfigError);
    expect(() => loadWorkerConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'only-one' })).toThrow(
      /set both or neither/,
    );
    expect(() => loadWorkerConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b-1', S3_PREFIX: '/abs' })).toThrow(/S3_PREFIX/);
  });
});

describe('the S3 driver', () => {
  it('loads the AWS SDK only for an S3 store, never for local storage', async () => {
    // A process of its own: this one's module cache may hold the SDK already.
    const script = `
      import { createRequire } from 'node:module';
      import { createStorage } from '#core/platform/storage/index.js';
      import { loadWorkerConfig } from './worker/config.js';
      const sdkLoaded = () => Object.keys(createRequire(process.cwd() + '/').cache).some((p) => p.includes('@aws-sdk'));
      const local = createStorage(loadWorkerConfig({ STORAGE_DIR: process.cwd() + '/.data/never-written' }));
      await local.head('workspaces/w1/assets/none.glb');
      const localUsed = sdkLoaded();
      const store = createStorage(loadWorkerConfig({
        STORAGE_DRIVER: 's3', S3_BUCKET: 'my-bucket', S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'key-id', S3_SECRET_ACCESS_KEY: 'secret',
      }));
      const made = sdkLoaded();
      const url = await store.presign('workspaces/w1/assets/a1.glb', 60);
      console.log(JSON.stringify({ localUsed, made, used: sdkLoaded(), host: new URL(url).host }));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: fileURLToPath(new URL('../../../', import.meta.url)),
      },
    );
    expect(JSON.parse(stdout)).toEqual({
      localUsed: false,
      made: false,
      used: true,
      host: 'my-bucket.s3.eu-west-1.amazonaws.com',
    });
  });
});

describe('signed URLs', () => {
  const signer = createUrlSigner('a-file-signing-secret-of-32-chars-or-more', 'https://api.example.com');
  const parse = (url: string) => {
    const u = new URL(url);
    return {
      key: decodeURIComponent(u.pathname.replace(/^\/files\//, '')),
      exp: Number(u.searchParams.get('exp')),
      sig: u.searchParams.get('sig')!,
    };
  };

  it('signs a key and expiry that verify, and nothing else does', () => {
    const url = signer.signFor('workspaces/w1/assets/a1.glb', 3600);
    expect(url.startsWith('https://api.example.com/files/workspaces/w1/assets/a1.glb?exp=')).toBe(true);
    const { key, exp, sig } = parse(url);
    expect(signer.verify(key, exp, sig)).toBe(true);
    expect(signer.verify('workspaces/w1/assets/a2.glb', exp, sig)).toBe(false);
    expect(signer.verify(key, exp + 1, sig)).toBe(false);
    expect(signer.verify(key, exp, sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A'))).toBe(false);
    expect(signer.verify(key, exp, '')).toBe(false);
    expect(signer.verify(key, Number.NaN, sig)).toBe(false);
    const other = createUrlSigner('another-file-signing-secret-of-32-chars', 'https://api.example.com');
    expect(other.verify(key, exp, sig)).toBe(false);
  });

  it('refuses expired URLs', () => {
    const exp = Math.floor(Date.now() / 1000) - 1;
    const { key, sig } = parse(signer.sign('a/b.png', exp));
    expect(signer.verify(key, exp, sig)).toBe(false);
  });

  it('gives model URLs that stay identical through a signing window and live at least a year', () => {
    const window = signingWindow();
    const a = signer.signModel('a/b.glb', window);
    const b = signer.signModel('a/b.glb', window);
    expect(a).toBe(b);
    expect(signer.signModel('a/b.glb', window + 1)).not.toBe(a);
    const { exp } = parse(a);
    expect(exp - Date.now() / 1000).toBeGreaterThanOrEqual(MODEL_URL_LIFETIME_SECONDS);
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(MODEL_URL_LIFETIME_SECONDS + SIGNING_WINDOW_SECONDS);
  });
});
