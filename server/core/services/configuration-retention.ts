import type { Db } from '../platform/db/client.js';
import type { StorageDriver } from '../platform/storage/index.js';
import { createConfigurationRepository } from '../repositories/configurations.js';

/** Expired configurations removed per statement. */
const BATCH = 500;

/**
 * Removes the cart configurations past their retention (CONFIGURATION_RETENTION_DAYS after they were last created)
 * with their pictures; a picture whose removal fails is left to the storage sweep. Answers how many went.
 */
export async function sweepExpiredConfigurations(deps: { db: Db; storage: StorageDriver }, now = new Date()) {
  const repo = createConfigurationRepository(deps.db);
  let removed = 0;
  for (;;) {
    const { count, keys } = await repo.deleteExpired(deps.db, now, BATCH);
    await Promise.allSettled(keys.map((key) => deps.storage.delete(key)));
    removed += count;
    if (count < BATCH) return removed;
  }
}
