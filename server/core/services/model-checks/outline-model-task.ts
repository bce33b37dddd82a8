import { glbOutline } from '../../domain/models/model-outline.js';
import type { Outline } from '../../wire/outline.js';

/** The cpu-pool task of outline-model-in-pool.ts: a stored GLB's outline in a pool thread. */
export default function outlineModelTask({ glb }: { glb: Uint8Array }): Promise<Outline> {
  return glbOutline(glb);
}
