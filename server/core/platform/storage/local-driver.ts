import { createReadStream, createWriteStream } from 'node:fs';
import {
  access,
  constants,
  mkdir,
  open,
  opendir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type ListedObject, type StorageDriver, type StoredObjectInfo } from './driver.js';
import { contentTypeFor } from './content-types.js';

/** Suffix of a file being written; readers and listings never see one. */
const TEMP_SUFFIX = '.tmp';

/**
 * Files on local disk, written to a temporary name and renamed so a reader never sees half a file. ETags
 * come from size and modification time, as static file servers do.
 */
export function createLocalDriver(rootDir: string): StorageDriver {
  const root = path.resolve(rootDir);
  const resolve = (key: string) => path.join(root, ...assertSafeKey(key).split('/'));

  /** Removes the folders a deleted file leaves empty, up to (not including) the root. */
  async function pruneEmptyFolders(from: string) {
    for (let dir = from; dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
      // Fails on a folder that still holds something (or is gone): stop there.
      if (
        !(await rmdir(dir).then(
          () => true,
          () => false,
        ))
      )
        return;
    }
  }

  async function writeThrough(target: string, body: Uint8Array | Readable, expectedLength: number | undefined) {
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}${TEMP_SUFFIX}`;
    try {
      // Bytes in memory go in one write (a stream of one chunk costs more on a busy machine).
      if (body instanceof Readable) await pipeline(body, createWriteStream(temp));
      else await writeFile(temp, body);
      if (expectedLength !== undefined) {
        const { size } = await stat(temp);
        if (size !== expectedLength)
          throw new Error(`storage put: ${size} bytes arrived, ${expectedLength} were announced`);
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async function info(key: string): Promise<StoredObjectInfo | null> {
    const stats = await stat(resolve(key)).catch(() => null);
    if (!stats?.isFile()) return null;
    return {
      size: stats.size,
      contentType: contentTypeFor(key),
      lastModified: stats.mtime,
      etag: `"${stats.size.toString(16)}-${stats.mtimeMs.toString(16)}"`,
    };
  }

  async function* walk(dir: string): AsyncGenerator<ListedObject> {
    const entries = await opendir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!entries) return;
    for await (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        yield* walk(full);
      } else if (entry.isFile()) {
        const stats = await stat(full).catch(() => null);
        if (!stats) continue;
        yield { key: path.relative(root, full).split(path.sep).join('/'), size: stats.size, lastModified: stats.mtime };
      }
    }
  }

  return {
    name: 'local',
    async put(key, body, options) {
      const target = resolve(key);
      try {
        await writeThrough(target, body, options.contentLength);
      } catch (error) {
        // A delete next door pruned the folder between mkdir and the write: make it again, once
        // (a buffer only: a stream has been consumed).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || body instanceof Readable) throw error;
        await writeThrough(target, body, options.contentLength);
      }
    },
    async get(key, range) {
      const found = await info(key);
      if (!found) return null;
      // Opened before streaming, so a file deleted in between is a miss rather than a stream error.
      const handle = await open(resolve(key), 'r').catch(() => null);
      if (!handle) return null;
      const body = createReadStream('', { fd: handle, start: range?.start, end: range?.end });
      return { ...found, body };
    },
    // async so that an unsafe key rejects like every other failure instead of throwing synchronously
    async read(key) {
      return readFile(resolve(key));
    },
    head: info,
    async delete(key) {
      const target = resolve(key);
      await rm(target, { force: true });
      await pruneEmptyFolders(path.dirname(target));
    },
    async *list(prefix = '') {
      // The folder the prefix names (or its parent, for a prefix that ends mid-name), then filter.
      const start =
        prefix === '' ? root : prefix.endsWith('/') ? resolve(prefix.slice(0, -1)) : path.dirname(resolve(prefix));
      for await (const object of walk(start)) {
        if (object.key.startsWith(prefix)) yield object;
      }
    },
    async check() {
      await mkdir(root, { recursive: true });
      await access(root, constants.R_OK | constants.W_OK).catch(() => {
        throw new Error(`STORAGE_DIR ${root} is not readable and writable by this process`);
      });
    },
    async close() {},
    localPath: resolve,
  };
}

/** Whether a listed key is a write still in progress (or one that was interrupted). */
export const isTemporaryFile = (key: string) => key.endsWith(TEMP_SUFFIX);
