import type { Object3D } from 'three';
import type { SceneModel, Vec3 } from '#core/wire/configurator/types.js';
import { keepAttached, type NodeNames } from './node-names.js';
import { overridePose, poseOf, writePose, type PartPose } from './part-pose.js';

/** What a name the file lacks reports (one warning per name). */
export type WarnName = (kind: string, name: string) => void;

/**
 * Applies a model's deletions, then its partTransforms about the part pivots (docs/scene-format.md, Model entries);
 * returns the owner poses (the base that transform effects start from) and each part's pivot.
 */
export function applyModelFields(
  root: Object3D,
  names: NodeNames,
  model: SceneModel,
  warn: WarnName,
): { poses: Map<Object3D, PartPose>; pivots: Map<Object3D, Vec3> } {
  for (const name of model.deletedParts) {
    const objects = names.get(name);
    if (!objects) warn('part', name);
    objects?.forEach((object) => object.removeFromParent());
  }
  keepAttached(names, root);

  const pivots = new Map<Object3D, Vec3>();
  for (const [name, pivot] of Object.entries(model.partPivots)) {
    const objects = names.get(name);
    if (!objects) warn('part', name);
    objects?.forEach((object) => pivots.set(object, pivot));
  }
  const poses = new Map<Object3D, PartPose>();
  for (const [name, transform] of Object.entries(model.partTransforms)) {
    const objects = names.get(name);
    if (!objects) warn('part', name);
    for (const object of objects ?? []) {
      const pose = poses.get(object) ?? poseOf(object);
      overridePose(pose, transform);
      poses.set(object, pose);
      writePose(object, pose, pivots.get(object));
    }
  }
  return { poses, pivots };
}
