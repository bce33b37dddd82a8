import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { assertSafeKey, type StorageDriver } from './driver.js';

/** Files on local disk. Writes go to a temporary name and are renamed, so a reader never sees half a file. */
export function createLocalDriver(rootDir: string): StorageDriver {
  const root = path.resolve(rootDir);
  const resolve = (key: string) => path.join(root, ...assertSafeKey(key).split('/'));

  /** Removes the folders a deleted file leaves empty, up to (not including) the root. */
  async function pruneEmptyFolders(from: string) {
    for (let dir = from; dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
      // Fails on a folder that still holds something (or is gone): stop there.
      if (!(await rmdir(dir).then(() => true, () => false))) return;
    }
  }

  async function writeThrough(target: string, body: Uint8Array) {
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    await writeFile(temp, body);
    await rename(temp, target);
  }

  return {
    name: 'local',
    async put(key, body) {
      const target = resolve(key);
      try {
        await writeThrough(target, body);
      } catch (error) {
        // A delete next door pruned the folder between mkdir and the write: make it again, once.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await writeThrough(target, body);
      }
    },
    // async so that an unsafe key rejects like every other failure instead of throwing synchronously
    async read(key) {
      return readFile(resolve(key));
    },
    async delete(key) {
      const target = resolve(key);
      await rm(target, { force: true });
      await pruneEmptyFolders(path.dirname(target));
    },
    async exists(key) {
      return stat(resolve(key)).then((s) => s.isFile(), () => false);
    },
    localPath: resolve,
  };
}
