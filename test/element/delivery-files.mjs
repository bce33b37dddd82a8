import { createHash } from 'node:crypto';
import { tsImport } from 'tsx/esm/api';

/**
 * Delivery files (docs/delivery-files.md) of the browser tests' models, made in web-test-runner's Node process by the
 * server's own makeDeliveryFile (glTF-Transform, sharp), once a run per distinct file.
 */

let maker;
/** File hash → its outcome, being made or made. */
const made = new Map();

async function make(glb) {
  maker ??= Promise.all([
    tsImport('#core/domain/models/delivery-file.ts', import.meta.url),
    tsImport('#core/platform/gltf-validator-error-codes.ts', import.meta.url),
  ]);
  const [{ makeDeliveryFile }, { gltfValidatorErrorCodes }] = await maker;
  return makeDeliveryFile(new Uint8Array(glb), { validatorErrorCodes: gltfValidatorErrorCodes() });
}

/** The outcome for a GLB: `{ kind: 'ready', glb }`, or `{ kind: 'skipped', reason }` (shoppers keep the original). */
export function deliveryOf(glb) {
  const key = createHash('sha256').update(glb).digest('hex');
  if (!made.has(key)) made.set(key, make(glb));
  return made.get(key);
}

/** Answers with the outcome: the delivery GLB, or 422 naming why the server would serve the original. */
export async function answerDelivery(ctx, glb) {
  const outcome = await deliveryOf(glb);
  if (outcome.kind !== 'ready') {
    ctx.status = 422;
    ctx.body = { success: false, error: 'delivery_skipped', message: outcome.reason };
    return;
  }
  ctx.type = 'model/gltf-binary';
  ctx.body = Buffer.from(outcome.glb);
}
