import type { Asset } from '../../core/platform/db/schema/index.js';
import type { UrlSigner } from '../../core/platform/storage/signed-urls.js';

/** Lifetime of the signed file URL in asset bodies (owner reads). */
const ASSET_URL_SECONDS = 3600;

/** The API body of an asset; the storage key never leaves the server, only a signed URL. */
export function toAssetBody(row: Asset, signer: UrlSigner) {
  return {
    id: row.id,
    name: row.name,
    fileName: row.fileName,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    sourceFormat: row.sourceFormat,
    url: signer.signFor(row.storageKey, ASSET_URL_SECONDS),
    modelInfo: row.modelInfo,
    externalSource: row.externalSource ?? null,
    readinessScore: row.readinessScore ?? null,
    readinessLevel: row.readinessLevel ?? null,
    // Never asked for yet: the read that shows it asks (docs/delivery-files.md), so it is on its way.
    delivery: {
      status: row.deliveryStatus ?? 'pending',
      sizeBytes: row.deliveryStatus === 'ready' ? row.deliverySizeBytes : null,
      originalBytes: row.sizeBytes,
      reason: row.deliveryReason,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
