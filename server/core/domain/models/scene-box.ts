import type { mat4 } from '@gltf-transform/core';

/**
 * A scene-space box grown by local boxes (a POSITION accessor's min and max) moved by their node's world matrix:
 * the eight corners of each, so no vertex is read. Infinite while nothing has been added.
 */
export class SceneBox {
  readonly min = [Infinity, Infinity, Infinity];
  readonly max = [-Infinity, -Infinity, -Infinity];

  add(m: mat4, lo: ArrayLike<number>, hi: ArrayLike<number>) {
    for (let corner = 0; corner < 8; corner++) {
      const x = corner & 1 ? hi[0] : lo[0];
      const y = corner & 2 ? hi[1] : lo[1];
      const z = corner & 4 ? hi[2] : lo[2];
      const p = [
        m[0] * x + m[4] * y + m[8] * z + m[12],
        m[1] * x + m[5] * y + m[9] * z + m[13],
        m[2] * x + m[6] * y + m[10] * z + m[14],
      ];
      for (let k = 0; k < 3; k++) {
        this.min[k] = Math.min(this.min[k], p[k]);
        this.max[k] = Math.max(this.max[k], p[k]);
      }
    }
  }

  get empty(): boolean {
    return !this.min.every(Number.isFinite) || !this.max.every(Number.isFinite);
  }
}
