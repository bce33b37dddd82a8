import { Euler, Quaternion, Vector3, type Object3D } from 'three';
import type { PartTransform, Vec3 } from '#core/wire/configurator/types.js';

/**
 * A part's local translation, rotation (radians, Euler XYZ) and scale as the owner writes them,
 * kept apart from the object's own position so a pivot can be applied after every override.
 */
export interface PartPose {
  position: Vector3;
  rotation: Euler;
  scale: Vector3;
}

export function poseOf(object: Object3D): PartPose {
  return {
    position: object.position.clone(),
    rotation: new Euler().setFromQuaternion(object.quaternion, 'XYZ'),
    scale: object.scale.clone(),
  };
}

export function clonePose(pose: PartPose): PartPose {
  return { position: pose.position.clone(), rotation: pose.rotation.clone(), scale: pose.scale.clone() };
}

/** Replaces the transform's components; an omitted one keeps the pose's (docs/scene-format.md, Part transforms). */
export function overridePose(pose: PartPose, transform: PartTransform): void {
  const { position, rotation, scale } = transform;
  if (position)
    pose.position.set(position.x ?? pose.position.x, position.y ?? pose.position.y, position.z ?? pose.position.z);
  if (rotation)
    pose.rotation.set(rotation.x ?? pose.rotation.x, rotation.y ?? pose.rotation.y, rotation.z ?? pose.rotation.z);
  if (scale) pose.scale.set(scale.x ?? pose.scale.x, scale.y ?? pose.scale.y, scale.z ?? pose.scale.z);
}

const turned = new Vector3();
const quaternion = new Quaternion();

/**
 * Writes the pose so rotation and scale turn about `pivot`: `T(position)·T(pivot)·R·S·T(−pivot)` is three's
 * `T(position')·R·S` with `position' = position + pivot − R·S·pivot`.
 */
export function writePose(object: Object3D, pose: PartPose, pivot: Vec3 | null | undefined): void {
  quaternion.setFromEuler(pose.rotation);
  object.quaternion.copy(quaternion);
  object.scale.copy(pose.scale);
  object.position.copy(pose.position);
  if (!pivot) return;
  turned.set(pivot.x, pivot.y, pivot.z).multiply(pose.scale).applyQuaternion(quaternion);
  object.position.add(new Vector3(pivot.x, pivot.y, pivot.z)).sub(turned);
}
