import { cpuTask, type CpuPool } from '../../platform/cpu-pool.js';
import type { Outline } from '../../wire/outline.js';

/** Reading a GLB's JSON takes milliseconds; past this the outline request fails rather than waits. */
const OUTLINE_MODEL_TIMEOUT_MS = 60_000;

const outlineModelTask = cpuTask<{ glb: Uint8Array }, Outline>(import.meta.url, './outline-model-task');

/**
 * A stored GLB's outline in the CPU pool, off the event loop (assets saved before outlines existed). `glb` is
 * moved to the thread when it owns its memory: do not use it afterwards.
 */
export function outlineModelInPool(pool: CpuPool, glb: Uint8Array): Promise<Outline> {
  return pool.run(outlineModelTask, { glb }, { timeoutMs: OUTLINE_MODEL_TIMEOUT_MS, transfer: [glb] });
}
