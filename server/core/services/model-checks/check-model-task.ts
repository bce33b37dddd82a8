import { checkModelFile, type CheckedModel } from '../../domain/models/check-model-file.js';
import { refusalOf, type ModelRefusal } from '../../domain/models/model-file-error.js';
import { gltfValidatorErrorCodes } from '../../platform/gltf-validator-error-codes.js';

/** What a check in the pool answers: the model, or the refusal (an Error's class does not cross threads). */
export type CheckModelOutcome = ({ ok: true } & CheckedModel) | ModelRefusal;

/** The cpu-pool task of check-model-in-pool.ts: `checkModelFile` in a pool thread. */
export default async function checkModelTask({
  bytes,
  fileName,
}: {
  bytes: Uint8Array;
  fileName: string;
}): Promise<CheckModelOutcome> {
  try {
    return { ok: true, ...(await checkModelFile(bytes, fileName, { validatorErrorCodes: gltfValidatorErrorCodes() })) };
  } catch (error) {
    return refusalOf(error);
  }
}
