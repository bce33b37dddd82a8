import type { Outline } from '../../wire/outline.js';

/** How far a bounds coordinate may move, as a share of the original's diagonal. */
const BOUNDS_TOLERANCE = 0.001;
/** Seconds an animation's duration may change (float rounding of its last key time). */
const DURATION_TOLERANCE = 1e-4;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What differs between an original's outline and its delivery file's, or null when they are equal: names, hierarchy,
 * materials, variants, animations and triangles exactly; bounds within 0.1% of the diagonal. Vertex counts are left
 * out: welding merges duplicate vertices on purpose.
 */
export function outlineDifference(original: Outline, delivery: Outline): string | null {
  if (!same(original.nodes, delivery.nodes)) return 'nodes or hierarchy';
  if (!same(original.materials, delivery.materials)) return 'materials';
  if (!same(original.variants, delivery.variants)) return 'variants';
  if (!same(original.truncated ?? false, delivery.truncated ?? false)) return 'truncation';
  if (
    original.animations.length !== delivery.animations.length ||
    original.animations.some(
      (animation, i) =>
        animation.name !== delivery.animations[i].name ||
        Math.abs(animation.duration - delivery.animations[i].duration) > DURATION_TOLERANCE,
    )
  )
    return 'animations';
  if (original.triangles !== delivery.triangles) return 'triangle count';
  const { min, max } = original.bounds;
  const tolerance = BOUNDS_TOLERANCE * Math.hypot(max.x - min.x, max.y - min.y, max.z - min.z);
  for (const corner of ['min', 'max'] as const)
    for (const axis of ['x', 'y', 'z'] as const)
      if (Math.abs(original.bounds[corner][axis] - delivery.bounds[corner][axis]) > tolerance) return 'bounds';
  return null;
}

/** The diagonal of an outline's bounds, in scene units. */
export function outlineDiagonal(outline: Outline): number {
  const { min, max } = outline.bounds;
  return Math.hypot(max.x - min.x, max.y - min.y, max.z - min.z);
}
