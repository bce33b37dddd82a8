import { MathUtils, NodeIO, type GLTF, type mat4, type vec3, type vec4 } from '@gltf-transform/core';
import type { Outline } from '../../wire/outline.js';
import { SceneBox } from './scene-box.js';

/**
 * A model's outline (docs/api.md, "Model outlines and names checked"), read from the glTF JSON alone: names,
 * hierarchy and counts come from the JSON, bounds from each POSITION accessor's declared min/max (the validator
 * holds them to the data), so no vertex is decoded and compressed geometry (Draco, meshopt) needs no decoder.
 */
export interface ModelOutlineOptions {
  /** Nodes listed before the outline is cut and marked `truncated`. Default 10,000. */
  maxNodes: number;
  /** Materials listed before the outline is cut and marked `truncated`. Default 2,000. */
  maxMaterials: number;
}

const MODEL_OUTLINE_DEFAULTS: ModelOutlineOptions = { maxNodes: 10_000, maxMaterials: 2_000 };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.map((v) => (isObject(v) ? v : {})) : []);
const isIndex = (value: unknown, length: number): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;
const nameOf = (value: Json): string | null => (typeof value.name === 'string' ? value.name : null);
const finite = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;
const numbers = (value: unknown, length: number, fallback: number[]) =>
  Array.isArray(value) && value.length === length ? value.map((v, i) => finite(v, fallback[i])) : fallback;

const IDENTITY: mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** The node's own transform: its `matrix`, else translation · rotation · scale. */
function localMatrix(node: Json): mat4 {
  if (Array.isArray(node.matrix) && node.matrix.length === 16) return numbers(node.matrix, 16, IDENTITY) as mat4;
  const t = numbers(node.translation, 3, [0, 0, 0]) as vec3;
  const r = numbers(node.rotation, 4, [0, 0, 0, 1]) as vec4;
  const s = numbers(node.scale, 3, [1, 1, 1]) as vec3;
  return MathUtils.compose(t, r, s, [...IDENTITY] as mat4);
}

/** a · b, column-major as glTF writes matrices. */
function multiply(a: mat4, b: mat4): mat4 {
  const out = new Array<number>(16);
  for (let col = 0; col < 4; col++)
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row] * b[col * 4 + k];
      out[col * 4 + row] = sum;
    }
  return out as unknown as mat4;
}

function triangleCount(mode: unknown, count: number): number {
  const drawn = mode === undefined ? 4 : mode;
  if (drawn === 4) return Math.floor(count / 3);
  if (drawn === 5 || drawn === 6) return Math.max(0, count - 2);
  return 0;
}

/** An accessor's declared min/max as numbers (normalized integers decoded); null when either is missing. */
function accessorRange(accessor: Json): { min: number[]; max: number[] } | null {
  if (!Array.isArray(accessor.min) || !Array.isArray(accessor.max)) return null;
  const decode = (value: unknown) => {
    const n = finite(value, NaN);
    return accessor.normalized === true && accessor.componentType !== 5126
      ? MathUtils.decodeNormalizedInt(n, accessor.componentType as GLTF.AccessorComponentType)
      : n;
  };
  const min = accessor.min.map(decode);
  const max = accessor.max.map(decode);
  return [...min, ...max].every(Number.isFinite) ? { min, max } : null;
}

/** The default scene's roots (`scene`, else the first); without scenes, every node no other node holds. */
function sceneRoots(gltf: Json, nodes: Json[]): number[] {
  const scenes = objects(gltf.scenes);
  if (scenes.length > 0) {
    const scene = scenes[isIndex(gltf.scene, scenes.length) ? gltf.scene : 0];
    return (Array.isArray(scene.nodes) ? scene.nodes : []).filter((i): i is number => isIndex(i, nodes.length));
  }
  const held = new Set(nodes.flatMap((node) => (Array.isArray(node.children) ? node.children : [])));
  return nodes.map((_, i) => i).filter((i) => !held.has(i));
}

/** Longest sampler input of each animation, in seconds (input accessors must declare min/max). */
function animationsOf(gltf: Json, accessors: Json[]): Outline['animations'] {
  return objects(gltf.animations).map((animation) => {
    let duration = 0;
    for (const sampler of objects(animation.samplers)) {
      if (!isIndex(sampler.input, accessors.length)) continue;
      const max = accessors[sampler.input].max;
      if (Array.isArray(max)) duration = Math.max(duration, finite(max[0], 0));
    }
    return { name: nameOf(animation), duration };
  });
}

function variantsOf(gltf: Json): string[] {
  const extension = isObject(gltf.extensions) ? gltf.extensions.KHR_materials_variants : undefined;
  if (!isObject(extension)) return [];
  return objects(extension.variants).flatMap((variant) => (typeof variant.name === 'string' ? [variant.name] : []));
}

/**
 * The outline of a glTF JSON document: its default scene's nodes depth first (a parent before its children, so a
 * cut at `maxNodes` keeps whole branches), every material, variant and animation, and the drawn geometry's bounds,
 * triangles and vertices with every instance counted, past the node cut too. Never throws on odd JSON.
 */
export function modelOutline(json: unknown, options: Partial<ModelOutlineOptions> = {}): Outline {
  const { maxNodes, maxMaterials } = { ...MODEL_OUTLINE_DEFAULTS, ...options };
  const gltf = isObject(json) ? json : {};
  const nodes = objects(gltf.nodes);
  const meshes = objects(gltf.meshes);
  const accessors = objects(gltf.accessors);
  const materials = objects(gltf.materials);

  const outline: Outline = {
    nodes: [],
    materials: materials.slice(0, maxMaterials).map(nameOf),
    variants: variantsOf(gltf),
    animations: animationsOf(gltf, accessors),
    bounds: { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } },
    triangles: 0,
    vertices: 0,
  };
  let truncated = materials.length > maxMaterials;
  const bounds = new SceneBox();
  const seen = new Set<number>();
  const stack: Array<{ node: number; parent: number | null; world: mat4 }> = sceneRoots(gltf, nodes)
    .reverse()
    .map((node) => ({ node, parent: null, world: IDENTITY }));

  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    // A node held twice (or a cycle) breaks the glTF rules; it is listed once.
    if (seen.has(entry.node)) continue;
    seen.add(entry.node);
    const node = nodes[entry.node];
    const world = multiply(entry.world, localMatrix(node));
    const hasMesh = isIndex(node.mesh, meshes.length);

    let index: number | null = null;
    if (outline.nodes.length < maxNodes) {
      index = outline.nodes.length;
      outline.nodes.push({ name: nameOf(node), parent: entry.parent, mesh: hasMesh, children: [] });
      if (entry.parent !== null) outline.nodes[entry.parent].children.push(index);
    } else truncated = true;

    if (hasMesh) {
      for (const primitive of objects(meshes[node.mesh as number].primitives)) {
        const attributes = isObject(primitive.attributes) ? primitive.attributes : {};
        if (!isIndex(attributes.POSITION, accessors.length)) continue;
        const position = accessors[attributes.POSITION];
        const vertices = Math.max(0, finite(position.count, 0));
        const indices = isIndex(primitive.indices, accessors.length) ? accessors[primitive.indices] : null;
        outline.vertices += vertices;
        outline.triangles += triangleCount(primitive.mode, indices ? Math.max(0, finite(indices.count, 0)) : vertices);
        const range = accessorRange(position);
        if (range) bounds.add(world, range.min, range.max);
      }
    }

    const children = (Array.isArray(node.children) ? node.children : []).filter((i): i is number =>
      isIndex(i, nodes.length),
    );
    // A child of a node past the cut is past it too: it is still walked for the bounds, without a parent index.
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], parent: index, world });
  }

  const vec = (v: number[]) => (bounds.empty ? { x: 0, y: 0, z: 0 } : { x: v[0], y: v[1], z: v[2] });
  outline.bounds = { min: vec(bounds.min), max: vec(bounds.max) };
  if (truncated) outline.truncated = true;
  return outline;
}

/** The outline of a GLB (its JSON chunk; the binary chunk is never decoded). */
export async function glbOutline(glb: Uint8Array, options: Partial<ModelOutlineOptions> = {}): Promise<Outline> {
  const { json } = await new NodeIO().binaryToJSON(glb);
  return modelOutline(json, options);
}
