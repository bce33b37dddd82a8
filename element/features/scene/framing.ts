import { MathUtils, Vector3, type Box3, type PerspectiveCamera } from 'three';

/** The least margin around the framed box on every side, a fraction of the canvas's shorter side. */
const FRAME_MARGIN = 0.05;
/** The least span of the framed box, a fraction of the canvas's width or of its height. */
const FRAME_SPAN = 0.6;
/** The margin a fit aims at: a little over the least, so antialiased edges and a shadow stay clear of it. */
const FIT_MARGIN = 0.07;

/** A canvas size in CSS pixels. */
export interface CanvasSize {
  width: number;
  height: number;
}

/** Where a camera stands and what it looks at. */
export interface CameraPlace {
  position: Vector3;
  target: Vector3;
}

const corner = new Vector3();

/** The box's eight corners, each passed to `visit` (one vector reused). */
function eachCorner(box: Box3, visit: (point: Vector3) => void) {
  for (let i = 0; i < 8; i++)
    visit(corner.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z));
}

/** The largest |x| and |y| a projected point may have (NDC) to keep `margin` of the shorter side clear. */
function limits({ width, height }: CanvasSize, margin: number) {
  const clear = margin * Math.min(width, height) * 2;
  return { x: 1 - clear / width, y: 1 - clear / height };
}

/**
 * Whether `camera` frames `box` (docs/scene-format.md, "Framing"): every corner in front of it and inside the canvas
 * with the margin, and the projection spanning at least 60% of the width or of the height.
 */
export function meetsFraming(box: Box3, camera: PerspectiveCamera, size: CanvasSize): boolean {
  if (box.isEmpty() || !size.width || !size.height) return true;
  camera.updateMatrixWorld();
  const limit = limits(size, FRAME_MARGIN);
  let inside = true;
  const low = new Vector3(Infinity, Infinity, 0);
  const high = new Vector3(-Infinity, -Infinity, 0);
  eachCorner(box, (point) => {
    const depth = -point.clone().applyMatrix4(camera.matrixWorldInverse).z;
    point.project(camera);
    if (depth <= camera.near || Math.abs(point.x) > limit.x || Math.abs(point.y) > limit.y) inside = false;
    low.min(point);
    high.max(point);
  });
  return inside && Math.max((high.x - low.x) / 2, (high.y - low.y) / 2) >= FRAME_SPAN;
}

/**
 * The closest place on the ray from the box's centre along `direction` (unit, target → camera) from which `camera`'s
 * angle of view holds the whole box with the fit's margin: the distance each corner needs, in closed form.
 */
export function fittedPlace(
  box: Box3,
  camera: PerspectiveCamera,
  direction: Vector3,
  size: CanvasSize,
): CameraPlace & { distance: number } {
  const target = box.getCenter(new Vector3());
  const limit = limits(size, FIT_MARGIN);
  const tanY = Math.tan(MathUtils.degToRad(camera.fov / 2));
  const tanX = tanY * camera.aspect;
  // The camera's axes looking along -direction (as Object3D.lookAt builds them); straight down borrows x.
  const right = new Vector3().crossVectors(camera.up, direction);
  if (right.lengthSq() < 1e-12) right.set(1, 0, 0);
  right.normalize();
  const up = new Vector3().crossVectors(direction, right);
  const radius = box.getSize(new Vector3()).length() / 2;
  let distance = 0;
  eachCorner(box, (point) => {
    const offset = point.sub(target);
    const along = offset.dot(direction);
    const needed = Math.max(
      Math.abs(offset.dot(right)) / (limit.x * tanX),
      Math.abs(offset.dot(up)) / (limit.y * tanY),
    );
    distance = Math.max(distance, needed + along);
  });
  // Outside the box's sphere, past the near plane (a hundredth of the radius); a box without extent from a unit away.
  distance = radius > 0 ? Math.max(distance, radius * 1.05) : 1;
  return { position: target.clone().addScaledVector(direction, distance), target, distance };
}
