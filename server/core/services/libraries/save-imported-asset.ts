import type { ImportJob } from '../../platform/db/schema/index.js';
import { storageKeys } from '../../platform/storage/index.js';
import type { LibraryAdapter, LibraryItem } from '../../platform/libraries/index.js';
import type { createOutboxRepository } from '../../repositories/outbox.js';
import { importJobId } from '../../jobs/queues.js';
import type { ImportRepository } from '../../repositories/imports.js';
import type { importModelInPool } from '../model-checks/import-model-in-pool.js';
import type { ImportSource } from '../model-checks/import-model-task.js';
import type { AssetService } from '../assets.js';
import { ImportFailure } from './import-failure.js';

export interface ImportedModel {
  job: ImportJob;
  item: LibraryItem;
  adapter: LibraryAdapter;
  /** The credit line written into the GLB. */
  attribution: string;
  source: ImportSource;
  checked: Awaited<ReturnType<typeof importModelInPool>>;
}

/** A file name from the model's name: lower-case words joined by dashes. */
function fileStemOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 80) || 'model'
  );
}

/**
 * Saves a checked import as an asset, its provenance in `externalSource`, and completes the job
 * in the same transaction; a job ended meanwhile (interrupted) refuses the save.
 */
export async function saveImportedAsset(
  services: { assets: AssetService; repo: ImportRepository; outbox: ReturnType<typeof createOutboxRepository> },
  { job, item, adapter, attribution, source, checked }: ImportedModel,
): Promise<void> {
  const { readiness } = checked;
  const externalSource = {
    library: job.provider,
    modelId: item.providerAssetId,
    name: item.name,
    sourceUrl: item.sourceUrl,
    author: item.author,
    license: item.license,
    licenseId: item.licenseId,
    licenseUrl: item.licenseUrl,
    licenseTier: item.licenseTier,
    commercialUseAllowed: item.commercialUseAllowed,
    attributionRequired: item.attributionRequired,
    attribution,
    providerCredit: adapter.credit,
    category: job.category,
    importedAt: new Date().toISOString(),
  };
  // The GLB is written only now, once every check passed, and in the same transaction as its row.
  await services.assets.createWithFile(
    job.workspaceId,
    {
      id: job.id,
      storageKey: storageKeys.asset(job.workspaceId, job.id),
      name: item.name.slice(0, 200),
      fileName: `${fileStemOf(item.name)}.glb`,
      contentType: 'model/gltf-binary',
      sizeBytes: checked.glb.byteLength,
      sourceFormat: source.kind === 'glb' ? 'glb' : source.kind === 'files' ? 'gltf' : 'zip',
      modelInfo: checked.info,
      outline: checked.outline,
      externalSource,
      readinessScore: readiness.score,
      readinessLevel: readiness.level,
      createdBy: job.personId,
    },
    checked.glb,
    {
      async beforeWrite(tx) {
        const row = await services.repo.lock(tx, job.id);
        if (!row || row.status === 'completed' || row.status === 'failed')
          throw new ImportFailure('interrupted', 'The import was ended while it was saving.');
      },
      async inTransaction(tx, asset) {
        await services.repo.complete(tx, job.id, {
          assetId: asset.id,
          readiness: { score: readiness.score, level: readiness.level, checks: readiness.checks },
          notices: readiness.notices,
        });
        await services.outbox.complete(tx, importJobId(job.id));
      },
    },
  );
}
