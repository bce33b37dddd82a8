import { cpuTask, type CpuPool } from '../../platform/cpu-pool.js';
import type { CheckedModel } from '../../domain/models/check-model-file.js';
import type { CheckModelOutcome } from './check-model-task.js';
import { unlessRefused } from '../../domain/models/model-file-error.js';

/** A check still running after this long fails (validating a 50 MB model takes seconds, not minutes). */
export const CHECK_MODEL_TIMEOUT_MS = 120_000;

const checkModelTask = cpuTask<{ bytes: Uint8Array; fileName: string }, CheckModelOutcome>(
  import.meta.url,
  './check-model-task',
);

/**
 * `checkModelFile` in the CPU pool, off the event loop. `bytes` is moved to the thread when it owns its
 * memory: do not use it afterwards.
 */
export async function checkModelFileInPool(pool: CpuPool, bytes: Uint8Array, fileName: string): Promise<CheckedModel> {
  const outcome = await pool.run(
    checkModelTask,
    { bytes, fileName },
    { timeoutMs: CHECK_MODEL_TIMEOUT_MS, transfer: [bytes] },
  );
  const { ok: _ok, ...model } = unlessRefused(outcome);
  return model;
}
