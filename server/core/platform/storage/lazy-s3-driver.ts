import type { StorageSettings } from '../config/pieces.js';
import { assertSafeKey, type StorageDriver } from './driver.js';

/**
 * The S3 driver, its module (and the AWS SDK, ~100 ms of start-up) loaded in the background once an S3 store is made:
 * a process on local storage never loads it.
 */
export function createLazyS3Driver(settings: StorageSettings['storage']['s3']): StorageDriver {
  let loading: Promise<StorageDriver> | undefined;
  const driver = () => (loading ??= import('./s3-driver.js').then(({ createS3Driver }) => createS3Driver(settings)));
  // Started now, so the first request does not wait for the SDK; a failure surfaces on first use.
  void driver().catch(() => {});
  return {
    name: 's3',
    put: async (key, body, options) => (await driver()).put(key, body, options),
    get: async (key, range) => (await driver()).get(key, range),
    read: async (key) => (await driver()).read(key),
    head: async (key) => (await driver()).head(key),
    delete: async (key) => (await driver()).delete(key),
    async *list(prefix) {
      yield* (await driver()).list(prefix);
    },
    presign(key, expiresInSeconds) {
      // The driver refuses an unsafe key before any promise, as the loaded one does.
      assertSafeKey(key);
      return driver().then((loaded) => loaded.presign!(key, expiresInSeconds));
    },
    check: async () => (await driver()).check(),
    // A driver never used has nothing to close.
    close: async () => (loading ? (await loading).close() : undefined),
  };
}
