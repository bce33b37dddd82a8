import type { Object3D } from 'three';
import type { GLTFParser } from 'three/addons/loaders/GLTFLoader.js';

/**
 * glTF node names as the file writes them → every three.js object of that name (docs/scene-format.md, How the
 * configurator reads the data), read through `parser.associations` because three renames nodes and two nodes can end up
 * sharing one three name.
 */
export type NodeNames = Map<string, Object3D[]>;

export function nodeNames(parser: GLTFParser): NodeNames {
  const names: NodeNames = new Map();
  for (const [object, reference] of parser.associations) {
    if (!('isObject3D' in object) || reference.nodes === undefined) continue;
    const name = (parser.json as { nodes?: Array<{ name?: string }> }).nodes?.[reference.nodes]?.name;
    if (name === undefined) continue;
    const objects = names.get(name) ?? [];
    objects.push(object as Object3D);
    names.set(name, objects);
  }
  return names;
}

/** Drops the objects no longer under `root` (deleted parts and their subtrees) from the index. */
export function keepAttached(names: NodeNames, root: Object3D): void {
  const attached = new Set<Object3D>();
  root.traverse((object) => attached.add(object));
  for (const [name, objects] of names) {
    const kept = objects.filter((object) => attached.has(object));
    if (kept.length) names.set(name, kept);
    else names.delete(name);
  }
}

/** One console.warn per model and name that the file lacks: owner data names parts the parser cannot see. */
export function createNameWarnings(): (modelId: string, kind: string, name: string) => void {
  const warned = new Set<string>();
  return (modelId, kind, name) => {
    const key = JSON.stringify([modelId, kind, name]);
    if (warned.has(key)) return;
    warned.add(key);
    console.warn(`config-share: model "${modelId}" has no ${kind} named "${name}"; the entry is ignored.`);
  };
}
