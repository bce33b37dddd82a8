import { checkModelFile, type CheckedModel } from '../../domain/models/check-model-file.js';
import { ModelFileError, type ModelFileErrorCode } from '../../domain/models/model-file-error.js';

/** What a check in the pool answers: the model, or the refusal (an Error's class does not cross threads). */
export type CheckModelOutcome = ({ ok: true } & CheckedModel) | { ok: false; code: ModelFileErrorCode; message: string; details?: unknown };

/** The cpu-pool task of check-model-in-pool.ts: `checkModelFile` in a pool thread. */
export default async function checkModelTask({ bytes, fileName }: { bytes: Uint8Array; fileName: string }): Promise<CheckModelOutcome> {
  try {
    return { ok: true, ...(await checkModelFile(bytes, fileName)) };
  } catch (error) {
    if (error instanceof ModelFileError) return { ok: false, code: error.code, message: error.message, details: error.details };
    throw error;
  }
}
