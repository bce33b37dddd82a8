import type { ImportJob } from '../../core/platform/db/schema/index.js';

/** The API body of an import job (docs/libraries.md, Imports). */
export function toImportJobBody(row: ImportJob) {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    stage: row.stage,
    bytesReceived: row.bytesReceived,
    bytesTotal: row.bytesTotal ?? null,
    provider: row.provider,
    providerAssetId: row.providerAssetId,
    assetId: row.assetId ?? null,
    readiness: row.readiness ?? null,
    notices: row.notices ?? null,
    error: row.error ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
