import type { ImportReadiness } from '../../wire/libraries.js';

type Check = ImportReadiness['checks'][number];

/** A delivery job's outcome as the readiness report and the console tell it. */
export interface DeliveryFacts {
  status: 'ready' | 'skipped' | 'failed';
  sizeBytes: number | null;
  originalBytes: number;
  reason: string | null;
}

/** A file size as people read it: MB from a megabyte (1,000,000 bytes), KB below. */
const fileSize = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`;

/**
 * The readiness report's line on the delivery file (docs/delivery-files.md): what shoppers download and what it saved.
 * Worth no points: the score judges the model as uploaded, which the owner can improve.
 */
export function deliveryCheck(delivery: DeliveryFacts): Check {
  const { status, sizeBytes, originalBytes, reason } = delivery;
  if (status === 'ready' && sizeBytes !== null) {
    const saved = Math.round((1 - sizeBytes / originalBytes) * 100);
    return {
      id: 'delivery',
      label: 'Delivery file',
      status: 'pass',
      value: sizeBytes,
      limit: originalBytes,
      message:
        `Shoppers download ${fileSize(sizeBytes)} instead of ${fileSize(originalBytes)} (${saved}% less): ` +
        'textures as WebP of at most 2048 px, geometry compressed with meshopt; names and parts unchanged.',
    };
  }
  return {
    id: 'delivery',
    label: 'Delivery file',
    status: 'warn',
    value: null,
    limit: originalBytes,
    message:
      `Shoppers download the original ${fileSize(originalBytes)}: no delivery file, ` +
      `because ${reason ?? 'it could not be made'}.`,
  };
}
