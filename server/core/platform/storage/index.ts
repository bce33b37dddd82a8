import type { StorageSettings } from '../config/pieces.js';
import { ConfigError } from '../config/settings.js';
import type { StorageDriver } from './driver.js';
import { createLocalDriver } from './local-driver.js';
import { createLazyS3Driver } from './lazy-s3-driver.js';

export type { StorageDriver } from './driver.js';
export { assertSafeKey, isSafeKey } from './driver.js';
export { contentTypeFor } from './content-types.js';
export { storageKeys, isClaimableKey } from './storage-keys.js';

/** Picks the driver STORAGE_DRIVER names (the S3 one loads the AWS SDK on first use). */
export function createStorage(config: StorageSettings): StorageDriver {
  return config.storage.driver === 's3' ? createLazyS3Driver(config.storage.s3) : createLocalDriver(config.storage.dir);
}

/** At boot: a store that cannot be used stops the process with one clear line (a ConfigError). */
export async function assertStorageUsable(storage: StorageDriver): Promise<void> {
  try {
    await storage.check();
  } catch (error) {
    throw new ConfigError(`file storage (STORAGE_DRIVER=${storage.name}): ${(error as Error).message}`);
  }
}
