import { Color, Object3D, type Material, type Mesh, type MeshStandardMaterial } from 'three';
import type { Effect, Options, Scene, Vec3 } from '#core/wire/configurator/types.js';
import type { BaseValues } from './base-values.js';
import type { WarnName } from './model-fields.js';
import type { ModelMaterials } from './model-materials.js';
import type { NodeNames } from './node-names.js';
import { clonePose, overridePose, poseOf, writePose, type PartPose } from './part-pose.js';
import type { TextureCache } from './textures.js';
import type { ModelVariants } from './variants.js';

/** One loaded model as the effects see it. */
export interface ConfigurableModel {
  id: string;
  root: Object3D;
  names: NodeNames;
  materials: ModelMaterials;
  variants: ModelVariants;
  /** Owner poses after partTransforms: the base of transform effects. */
  poses: Map<Object3D, PartPose>;
  pivots: Map<Object3D, Vec3>;
  warn: WarnName;
}

type MaterialEffect = Extract<Effect, { type: 'material' }>;

/** The selected effects: active blocks in block order, each choice's in order (docs/scene-format.md, Effects). */
export function selectedEffects(scene: Scene, options: Options): Effect[] {
  return scene.optionBlocks.flatMap((block) => {
    const choiceId = options[block.id];
    return block.choices.find((choice) => choice.id === choiceId)?.effects ?? [];
  });
}

/** The texture URLs these effects need. */
export const textureUrls = (effects: Effect[]): string[] =>
  effects.flatMap((effect) => (effect.type === 'material' && effect.map ? [effect.map] : []));

const meshesUnder = (objects: Object3D[]): Mesh[] => {
  const meshes = new Set<Mesh>();
  for (const object of objects)
    object.traverse((each) => {
      if ((each as Mesh).isMesh) meshes.add(each as Mesh);
    });
  return [...meshes];
};

/**
 * Rebuilds the configured scene from the base: every property an earlier build touched goes back,
 * then the effects apply in order, a later write winning. Synchronous; textures must be loaded.
 */
export function applyEffects(
  models: ConfigurableModel[],
  effects: Effect[],
  base: BaseValues,
  textures: TextureCache,
): void {
  base.restore();
  const poses = new Map<Object3D, { pose: PartPose; model: ConfigurableModel }>();
  for (const effect of effects) {
    for (const model of models) {
      if (effect.model !== null && effect.model !== model.id) continue;
      const nodes = (names: string[]) =>
        names.flatMap((name) => {
          const objects = model.names.get(name);
          if (!objects) model.warn('part', name);
          return objects ?? [];
        });
      switch (effect.type) {
        case 'visibility':
          setVisible(effect.nodes ? nodes(effect.nodes) : [model.root], effect.visible, model.root, base);
          break;
        case 'variant':
          if (!model.variants.names.includes(effect.name)) model.warn('variant', effect.name);
          for (const mesh of model.variants.meshes.keys())
            base.set(mesh, 'material', model.variants.materialFor(mesh, effect.name));
          break;
        case 'transform':
          for (const object of nodes(effect.nodes)) {
            const entry = poses.get(object) ?? { pose: clonePose(model.poses.get(object) ?? poseOf(object)), model };
            overridePose(entry.pose, effect);
            poses.set(object, entry);
          }
          break;
        case 'material':
          applyMaterialEffect(model, effect, effect.nodes ? meshesUnder(nodes(effect.nodes)) : null, base, textures);
          break;
      }
    }
  }
  const placed = new Object3D();
  for (const [object, { pose, model }] of poses) {
    writePose(placed, pose, model.pivots.get(object));
    base.copy(object, 'position', placed.position);
    base.copy(object, 'quaternion', placed.quaternion);
    base.copy(object, 'scale', placed.scale);
  }
}

/**
 * Writes every node of the subtrees, so a later write wins at any depth (hide the model, then show the seat); a
 * shown node's ancestors are shown too, their other children keeping what was written to them.
 */
function setVisible(objects: Object3D[], visible: boolean, root: Object3D, base: BaseValues): void {
  for (const object of objects) {
    object.traverse((each) => base.set(each, 'visible', visible));
    if (!visible) continue;
    for (let above = object; above !== root && above.parent; above = above.parent)
      base.set(above.parent, 'visible', true);
  }
}

/**
 * `material` targets a glTF material wherever used; `nodes` (the meshes given) gets per-mesh clones so other meshes
 * keep theirs. `use` first, then the properties: on a clone of the used material, which other meshes may show.
 */
function applyMaterialEffect(
  model: ConfigurableModel,
  effect: MaterialEffect,
  meshes: Mesh[] | null,
  base: BaseValues,
  textures: TextureCache,
): void {
  if (meshes) return applyToMeshes(model, effect, meshes, base, textures);
  if (effect.material === undefined) return;
  const instances = model.materials.named(effect.material);
  if (instances.length === 0) return model.warn('material', effect.material);
  if (effect.use === undefined) {
    for (const material of instances) setProperties(material, effect, base, textures);
    return;
  }
  const shown = new Set(instances);
  const showing: Mesh[] = [];
  model.root.traverse((object) => {
    if ((object as Mesh).isMesh && shown.has((object as Mesh).material as Material)) showing.push(object as Mesh);
  });
  applyToMeshes(model, effect, showing, base, textures);
}

/** Each mesh shows `use` (or keeps its material), as its own clone when properties change. */
function applyToMeshes(
  model: ConfigurableModel,
  effect: MaterialEffect,
  meshes: Mesh[],
  base: BaseValues,
  textures: TextureCache,
): void {
  const changesProperties = ['color', 'roughness', 'metalness', 'opacity', 'map'].some(
    (key) => effect[key as keyof MaterialEffect] !== undefined,
  );
  for (const mesh of meshes) {
    let material = mesh.material as Material;
    if (effect.use !== undefined) {
      const used = model.materials.final(mesh, effect.use);
      if (!used) model.warn('material', effect.use);
      material = used ?? material;
    }
    if (changesProperties) material = model.materials.cloneFor(mesh, material);
    base.set(mesh, 'material', material);
    setProperties(material, effect, base, textures);
  }
}

function setProperties(material: Material, effect: MaterialEffect, base: BaseValues, textures: TextureCache): void {
  const standard = material as MeshStandardMaterial;
  // setStyle reads sRGB and stores linear, as three's colour management wants: no second conversion.
  if (effect.color !== undefined && standard.color) base.copy(standard, 'color', new Color().setStyle(effect.color));
  if (effect.roughness !== undefined && 'roughness' in standard) base.set(standard, 'roughness', effect.roughness);
  if (effect.metalness !== undefined && 'metalness' in standard) base.set(standard, 'metalness', effect.metalness);
  if (effect.opacity !== undefined) {
    base.set(standard, 'opacity', effect.opacity);
    if (effect.opacity < 1) base.set(standard, 'transparent', true);
  }
  if (effect.map !== undefined) {
    const texture = textures.get(effect.map);
    if (texture) base.set(standard, 'map', texture);
  }
}
