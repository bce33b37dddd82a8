import { Box3, type Mesh, type Object3D } from 'three';

const box = new Box3();

/**
 * The box around what is drawn: `Box3.setFromObject` ignores `visible`, so hidden parts would
 * still be framed, and framing leaves them out (docs/scene-format.md, Framing).
 */
export function visibleBounds(root: Object3D): Box3 {
  const bounds = new Box3();
  root.updateWorldMatrix(true, true);
  root.traverseVisible((object) => {
    const mesh = object as Mesh;
    if (!mesh.isMesh) return;
    if (!mesh.geometry.boundingBox) mesh.geometry.computeBoundingBox();
    bounds.union(box.copy(mesh.geometry.boundingBox!).applyMatrix4(mesh.matrixWorld));
  });
  return bounds;
}
