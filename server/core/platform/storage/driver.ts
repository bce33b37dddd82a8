import type { Readable } from 'node:stream';

/**
 * Where files live. Keys are POSIX-style relative paths (`workspaces/<id>/assets/<id>.glb`).
 * The local driver writes under STORAGE_DIR; an S3 driver implements the same four calls and
 * answers `GET /files` with a redirect to a presigned URL instead of streaming (see `presign`).
 */
export interface StorageDriver {
  readonly name: 'local' | 's3';
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  read(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Local disk only: the absolute path the file server streams from. */
  localPath?(key: string): string;
  /** Object stores only: a short-lived URL the file route redirects to. */
  presign?(key: string, expiresInSeconds: number): Promise<string>;
  /** Streams (for drivers that cannot give a path). */
  stream?(key: string): Promise<Readable>;
}

const SAFE_KEY = /^(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/;

/** Refuses keys that could leave the storage root (`..`, absolute paths, odd characters). */
export function assertSafeKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
    throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

export function isSafeKey(key: string): boolean {
  try {
    assertSafeKey(key);
    return true;
  } catch {
    return false;
  }
}
