import type { StorageDriver } from './driver.js';
import { isTemporaryFile } from './local-driver.js';

export interface CopyProgress {
  copied: number;
  skipped: number;
  failed: Array<{ key: string; error: string }>;
  bytes: number;
}

export interface CopyOptions {
  /** Objects copied at once (default 4). */
  concurrency?: number;
  /** Report what would be copied without writing anything. */
  dryRun?: boolean;
  /** Called after each object (copied, skipped or failed). */
  onObject?(key: string, outcome: 'copied' | 'skipped' | 'failed', progress: CopyProgress): void;
}

/**
 * Copies every object of `source` into `target`, streamed and resumable: objects the target holds with the
 * same size and no older time are skipped. One object's failure is recorded and the copy goes on.
 */
export async function copyObjects(
  source: StorageDriver,
  target: StorageDriver,
  options: CopyOptions = {},
): Promise<CopyProgress> {
  const progress: CopyProgress = { copied: 0, skipped: 0, failed: [], bytes: 0 };
  const listing = source.list('')[Symbol.asyncIterator]();

  async function copyOne(key: string, size: number, lastModified: Date) {
    const existing = await target.head(key);
    // In whole seconds: S3 keeps LastModified to the second, so a copy made in the source's second reads as older.
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
    if (existing && existing.size === size && seconds(existing.lastModified) >= seconds(lastModified))
      return 'skipped' as const;
    if (options.dryRun) return 'copied' as const;
    const object = await source.get(key);
    if (!object) return 'skipped' as const; // deleted since it was listed
    await target.put(key, object.body, { contentType: object.contentType, contentLength: object.size });
    progress.bytes += object.size;
    return 'copied' as const;
  }

  async function lane() {
    for (let next = await listing.next(); !next.done; next = await listing.next()) {
      const { key, size, lastModified } = next.value;
      if (isTemporaryFile(key)) continue; // a write in progress or an interrupted one: not a file
      const outcome = await copyOne(key, size, lastModified).catch((error: unknown) => {
        progress.failed.push({ key, error: (error as Error).message });
        return 'failed' as const;
      });
      if (outcome !== 'failed') progress[outcome]++;
      options.onObject?.(key, outcome, progress);
    }
  }

  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, lane));
  return progress;
}
