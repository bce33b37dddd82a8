import type { Executor } from '../platform/db/client.js';
import { isClaimableKey, type StorageDriver } from '../platform/storage/index.js';
import { createStoredFileRepository } from '../repositories/stored-files.js';

export interface SweepDeps {
  db: Executor;
  storage: StorageDriver;
}

export interface SweepResult {
  /** Objects the sweeper looked at (the keys it manages, old enough). */
  examined: number;
  removed: string[];
}

/** Keys asked about per query. */
const BATCH = 500;

/**
 * Removes stored objects no row claims once they are older than `graceMs`: what is left when a
 * write failed or was interrupted between the object and its row (the object is always written
 * first), or when a delete's file removal did not happen. Only keys this product writes and
 * records (assets, request screenshots and PDFs) are considered; the grace period is far longer
 * than any write takes to commit, so an object whose row is about to commit is never touched.
 */
export async function sweepUnclaimedFiles(
  deps: SweepDeps,
  options: { graceMs: number; now?: number },
): Promise<SweepResult> {
  const files = createStoredFileRepository(deps.db);
  const cutoff = (options.now ?? Date.now()) - options.graceMs;
  const result: SweepResult = { examined: 0, removed: [] };
  let batch: string[] = [];

  async function settle() {
    const claimed = await files.claimed(batch);
    for (const key of batch) {
      if (claimed.has(key)) continue;
      await deps.storage.delete(key);
      result.removed.push(key);
    }
    batch = [];
  }

  for await (const object of deps.storage.list('workspaces/')) {
    if (!isClaimableKey(object.key) || object.lastModified.getTime() > cutoff) continue;
    result.examined++;
    batch.push(object.key);
    if (batch.length >= BATCH) await settle();
  }
  if (batch.length > 0) await settle();
  return result;
}
