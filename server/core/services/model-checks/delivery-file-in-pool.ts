// Loaded here, in the main thread, so that pool threads starting and ending do not unload sharp's native library
// (sharp's docs: worker threads on glibc Linux).
import 'sharp';
import { cpuTask, type CpuPool } from '../../platform/cpu-pool.js';
import type { DeliveryOutcome } from '../../domain/models/delivery-file.js';

/** A 50 MB model with four 4096 px textures takes seconds; past this the job fails and is tried again. */
const DELIVERY_FILE_TIMEOUT_MS = 5 * 60_000;

const deliveryFileTask = cpuTask<{ glb: Uint8Array }, DeliveryOutcome>(import.meta.url, './delivery-file-task');

/**
 * A stored GLB's delivery file (docs/delivery-files.md) in the CPU pool, off the event loop. `glb` is moved to the
 * thread when it owns its memory: do not use it afterwards.
 */
export function deliveryFileInPool(pool: CpuPool, glb: Uint8Array, signal?: AbortSignal): Promise<DeliveryOutcome> {
  return pool.run(deliveryFileTask, { glb }, { timeoutMs: DELIVERY_FILE_TIMEOUT_MS, transfer: [glb], signal });
}
