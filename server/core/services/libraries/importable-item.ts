import type { ImportJob } from '../../platform/db/schema/index.js';
import type { LibraryAdapter, LibraryItem } from '../../platform/libraries/index.js';
import { ImportFailure } from './import-failure.js';

/**
 * The model as the library describes it now, judged again before any download since its licence may have
 * changed. `call` runs one library call under the run's time limit.
 */
export async function importableItem(
  adapter: LibraryAdapter,
  job: ImportJob,
  call: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>,
): Promise<LibraryItem> {
  const found = await call((s) => adapter.get(job.providerAssetId, { signal: s }));
  if (!found) throw new ImportFailure('unavailable', `${adapter.name} no longer offers this model.`);
  if (found.licenseTier === 'blocked')
    throw new ImportFailure(
      'license_blocked',
      `The model's licence (${found.license}) does not allow an import any more.`,
    );
  if (found.licenseTier === 'conditions' && !job.licenseAcknowledged)
    throw new ImportFailure(
      'license_ack_required',
      'The licence changed to one with conditions; acknowledge it and import again.',
    );
  return found;
}
