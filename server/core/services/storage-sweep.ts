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
 * Removes stored objects no row claims once older than `graceMs`: leftovers of interrupted writes (the object is
 * written first) or of missed removals. The grace far exceeds any commit, so a row about to commit keeps its object.
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
