import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { assertSafeKey, type StorageDriver } from './driver.js';

/** Files on local disk. Writes go to a temporary name and are renamed, so a reader never sees half a file. */
export function createLocalDriver(rootDir: string): StorageDriver {
  const root = path.resolve(rootDir);
  const resolve = (key: string) => path.join(root, ...assertSafeKey(key).split('/'));
  return {
    name: 'local',
    async put(key, body) {
      const target = resolve(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${randomUUID()}.tmp`;
      await writeFile(temp, body);
      await rename(temp, target);
    },
    // async so that an unsafe key rejects like every other failure instead of throwing synchronously
    async read(key) {
      return readFile(resolve(key));
    },
    async delete(key) {
      await rm(resolve(key), { force: true });
    },
    async exists(key) {
      return stat(resolve(key)).then((s) => s.isFile(), () => false);
    },
    localPath: resolve,
  };
}
