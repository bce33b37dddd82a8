import { makeDeliveryFile, type DeliveryOutcome } from '../../domain/models/delivery-file.js';
import { gltfValidatorErrorCodes } from '../../platform/gltf-validator-error-codes.js';

/** The cpu-pool task of delivery-file-in-pool.ts: a stored GLB's delivery file in a pool thread. */
export default function deliveryFileTask({ glb }: { glb: Uint8Array }): Promise<DeliveryOutcome> {
  return makeDeliveryFile(glb, { validatorErrorCodes: gltfValidatorErrorCodes() });
}
