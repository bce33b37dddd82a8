import type { StorageSettings } from '../config/pieces.js';
import { ConfigError } from '../config/settings.js';
import type { StorageDriver } from './driver.js';
import { createLocalDriver } from './local-driver.js';

export type { StorageDriver } from './driver.js';
export { assertSafeKey, isSafeKey } from './driver.js';

/** Picks the driver STORAGE_DRIVER names. */
export function createStorage(config: StorageSettings): StorageDriver {
  if (config.storage.driver === 'local') return createLocalDriver(config.storage.dir);
  throw new ConfigError('STORAGE_DRIVER=s3 is not available in this build; use local');
}

/** Storage keys, in one place so server and worker agree on the layout. */
export const storageKeys = {
  asset: (workspaceId: string, assetId: string) => `workspaces/${workspaceId}/assets/${assetId}.glb`,
  projectUpload: (workspaceId: string, projectId: string, relativePath: string) =>
    `workspaces/${workspaceId}/projects/${projectId}/${relativePath}`,
  screenshot: (workspaceId: string, submissionId: string, position: number, ext: string) =>
    `workspaces/${workspaceId}/requests/${submissionId}/screenshot-${position + 1}.${ext}`,
  requestPdf: (workspaceId: string, submissionId: string) => `workspaces/${workspaceId}/requests/${submissionId}/request.pdf`,
};
