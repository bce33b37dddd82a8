import type { ImportReadiness } from '../../wire/libraries.js';

type Check = ImportReadiness['checks'][number];

/** A delivery job's outcome as the readiness report and the console tell it. */
export interface DeliveryFacts {
  status: 'ready' | 'skipped' | 'failed';
  sizeBytes: number | null;
  originalBytes: number;
  reason: string | null;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

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
        `Shoppers download ${megabytes(sizeBytes)} instead of ${megabytes(originalBytes)} (${saved}% less): ` +
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
      `Shoppers download the original ${megabytes(originalBytes)}: no delivery file, ` +
      `because ${reason ?? 'it could not be made'}.`,
  };
}
