import { cpuTask, type CpuPool } from '../../platform/cpu-pool.js';
import { ModelFileError } from '../../domain/models/model-file-error.js';
import type { CheckedModel } from '../../domain/models/check-model-file.js';
import type { ReadinessReport } from '../../domain/models/readiness.js';
import type { ImportModelInput, ImportModelOutcome, ImportTimings } from './import-model-task.js';

/** Converting and checking a 50 MB model takes seconds; past this the import fails. */
export const IMPORT_MODEL_TIMEOUT_MS = 180_000;

const importModelTask = cpuTask<ImportModelInput, ImportModelOutcome>(import.meta.url, './import-model-task');

/** `importModelTask` in the CPU pool; its refusals come back as ModelFileError (invalid_file, too_large, conversion_failed). */
export async function importModelInPool(pool: CpuPool, input: ImportModelInput, signal?: AbortSignal): Promise<CheckedModel & { readiness: ReadinessReport; timings: ImportTimings }> {
  const outcome = await pool.run(importModelTask, input, { timeoutMs: IMPORT_MODEL_TIMEOUT_MS, signal });
  if (!outcome.ok) throw new ModelFileError(outcome.code, outcome.message, outcome.details);
  const { ok: _ok, ...model } = outcome;
  return model;
}
