/**
 * A box as many exporters write one: each face a grid of `segments` × `segments` quads, every quad with four vertices
 * of its own (nothing welded), with normals and texture coordinates (0–1 across each face). Delivery files
 * (docs/delivery-files.md) weld, quantize and compress exactly this, so a test model built of it is made smaller.
 */
export function boxGeometry([sx, sy, sz], segments) {
  const size = [sx, sy, sz];
  const quads = 6 * segments * segments;
  const position = new Float32Array(quads * 12);
  const normal = new Float32Array(quads * 12);
  const uv = new Float32Array(quads * 8);
  const indices = new Uint16Array(quads * 6);
  let quad = 0;
  for (const axis of [0, 1, 2])
    for (const sign of [1, -1]) {
      // u × v = axis: corners in (u, v) order go anticlockwise seen from outside the +axis face.
      const [u, v] = [(axis + 1) % 3, (axis + 2) % 3];
      for (let i = 0; i < segments; i++)
        for (let j = 0; j < segments; j++, quad++) {
          const corners = [
            [i, j],
            [i + 1, j],
            [i + 1, j + 1],
            [i, j + 1],
          ];
          corners.forEach(([a, b], k) => {
            const at = quad * 4 + k;
            const point = [0, 0, 0];
            point[axis] = (sign * size[axis]) / 2;
            point[u] = (a / segments - 0.5) * size[u];
            point[v] = (b / segments - 0.5) * size[v];
            position.set(point, at * 3);
            normal[at * 3 + axis] = sign;
            uv.set([a / segments, b / segments], at * 2);
          });
          const first = quad * 4;
          const order = sign > 0 ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2];
          indices.set(
            order.map((corner) => first + corner),
            quad * 6,
          );
        }
    }
  return { position, normal, uv, indices };
}
