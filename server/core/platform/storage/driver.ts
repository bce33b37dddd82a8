import type { Readable } from 'node:stream';

/** What a store knows about one object. */
export interface StoredObjectInfo {
  size: number;
  contentType: string;
  lastModified: Date;
  /** A strong validator of the bytes (quoted, as in an ETag header). */
  etag: string;
}

/** An object being read: its bytes as a stream (the whole object, or the range asked for). */
export interface StoredObjectStream extends StoredObjectInfo {
  body: Readable;
}

/** An inclusive byte range, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A key found by `list`, with what the sweeper and the copy command need. */
export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface PutOptions {
  contentType: string;
  /** Required with a stream body so the store can set Content-Length up front (and refuse a short stream). */
  contentLength?: number;
}

/**
 * Where files live (local STORAGE_DIR or an S3-compatible bucket), under POSIX-style keys. Bodies may be streams so
 * large files are never held whole; a put is atomic, so a failed one leaves no object behind.
 */
export interface StorageDriver {
  readonly name: 'local' | 's3';
  put(key: string, body: Uint8Array | Readable, options: PutOptions): Promise<void>;
  /** The object's bytes as a stream (or a range of them); null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<StoredObjectStream | null>;
  /** A small object whole (an e-mail attachment, a screenshot); rejects when it is missing. */
  read(key: string): Promise<Buffer>;
  head(key: string): Promise<StoredObjectInfo | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every object under `prefix` (all when empty), in no promised order. */
  list(prefix?: string): AsyncIterable<ListedObject>;
  /** Local disk only: the absolute path the file route streams from (with Range and conditional GETs). */
  localPath?(key: string): string;
  /** Object stores only: a short-lived URL the file route redirects to. */
  presign?(key: string, expiresInSeconds: number): Promise<string>;
  /** Throws a clear error when the store cannot be used (bucket missing, wrong credentials, folder not writable). */
  check(): Promise<void>;
  close(): Promise<void>;
}

const SAFE_KEY = /^(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/;

/** Refuses keys that could leave the storage root (`..`, absolute paths, odd characters). */
export function assertSafeKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  return key;
}

export function isSafeKey(key: string): boolean {
  return key.length <= 1024 && SAFE_KEY.test(key) && !key.split('/').some((part) => part === '.' || part === '..');
}

/** The store could not be reached or refused the request: the caller answers 503, not 500. */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
