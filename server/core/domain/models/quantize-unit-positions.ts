import { Node, Primitive, PropertyType, type Accessor, type Document, type Transform } from '@gltf-transform/core';
import { KHRMeshQuantization } from '@gltf-transform/extensions';

/** The step of a normalized 16-bit coordinate: 1 / 32767 of a unit. */
const STEP = 1 / 32767;
/** The largest error kept, as a share of the scene's diagonal: a tenth of a pixel on a 1,000 px view of it. */
const MAX_ERROR_SHARE = 1e-4;

/** The largest scale a node's world matrix applies along any axis. */
function worldScale(node: Node): number {
  const m = node.getWorldMatrix();
  return Math.max(Math.hypot(m[0], m[1], m[2]), Math.hypot(m[4], m[5], m[6]), Math.hypot(m[8], m[9], m[10]));
}

/** Whether every user of a POSITION accessor draws it small enough for a 16-bit step to stay unseen. */
function quantizable(position: Accessor, maxError: number): boolean {
  const users = position.listParents().filter((parent) => parent.propertyType !== PropertyType.ROOT);
  if (users.length === 0) return false;
  if (!users.every((user) => user instanceof Primitive && user.getAttribute('POSITION') === position)) return false;
  for (const primitive of users as Primitive[]) {
    if (primitive.listTargets().length > 0) return false;
    for (const mesh of primitive.listParents()) {
      const nodes = mesh.listParents().filter((parent): parent is Node => parent instanceof Node);
      if (nodes.some((node) => node.getExtension('EXT_mesh_gpu_instancing'))) return false;
      if (nodes.some((node) => (STEP / 2) * worldScale(node) > maxError)) return false;
    }
  }
  return true;
}

/**
 * KHR_mesh_quantization for positions without touching a node: glTF-Transform's quantize moves a mesh into its own
 * box and puts the inverse on the node (a new child node under a parent), which would change the hierarchy and the
 * transforms scenes set. Positions inside [-1, 1] need no box: they become normalized 16-bit integers as they are.
 */
export function quantizeUnitPositions(sceneDiagonal: number): Transform {
  return (doc: Document) => {
    const maxError = sceneDiagonal * MAX_ERROR_SHARE;
    let quantized = false;
    for (const position of doc.getRoot().listAccessors()) {
      const array = position.getArray();
      if (!(array instanceof Float32Array) || position.getType() !== 'VEC3') continue;
      if (!array.every((value) => value >= -1 && value <= 1) || !quantizable(position, maxError)) continue;
      const ints = new Int16Array(array.length);
      for (let i = 0; i < array.length; i++) ints[i] = Math.round(array[i] / STEP);
      position.setArray(ints).setNormalized(true);
      quantized = true;
    }
    if (quantized) doc.createExtension(KHRMeshQuantization).setRequired(true);
  };
}
