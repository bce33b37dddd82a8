import {
  isRecord,
  join,
  readEntries,
  readId,
  readList,
  readPartialVec3,
  readText,
  readVec3,
  setOwn,
  type Json,
} from './owner-values.js';
import type { SceneWarnings } from './scene-warnings.js';
import type { PartTransform, SceneModel, Vec3 } from './types.js';

/** partTransforms entries, deletedParts and pivot parts, each per model (docs/scene-format.md, Limits). */
export const MAX_PART_ENTRIES = 1000;
export const MAX_NODE_NAME = 1000;

function readPartTransform(value: unknown, path: string, warnings: SceneWarnings): PartTransform | undefined {
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'A part transform is { position?, rotation?, scale? }.');
    return undefined;
  }
  const transform: PartTransform = {};
  for (const key of ['position', 'rotation', 'scale'] as const) {
    const vector = readPartialVec3(value[key], join(path, key), warnings);
    if (vector) transform[key] = vector;
  }
  return transform;
}

const isMatrix = (value: unknown) =>
  Array.isArray(value) && value.length === 16 && value.every((n) => typeof n === 'number' && Number.isFinite(n));

/** A model's configurator fields (docs/scene-format.md, Model entries); null without a usable id (names come by id). */
function readModel(value: unknown, path: string, warnings: SceneWarnings): SceneModel | null {
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'A model entry must be an object.');
    return null;
  }
  const id = readId(value.id, join(path, 'id'), warnings);
  if (id === undefined) return null;

  const partTransforms: Record<string, PartTransform> = {};
  const transformsPath = join(path, 'partTransforms');
  for (const [name, entry] of readEntries(value.partTransforms, MAX_PART_ENTRIES, transformsPath, warnings)) {
    const transform = readPartTransform(entry, join(transformsPath, name), warnings);
    if (transform) setOwn(partTransforms, name, transform);
  }

  const deletedPath = join(path, 'deletedParts');
  const deletedParts = readList(value.deletedParts, MAX_PART_ENTRIES, deletedPath, warnings).flatMap((name, i) => {
    const text = readText(name, join(deletedPath, i), warnings, MAX_NODE_NAME);
    return text === undefined ? [] : [text];
  });

  const pivotPath = join(path, 'pivotData');
  const pivotData: Json = isRecord(value.pivotData) ? value.pivotData : {};
  if (value.pivotData !== undefined && value.pivotData !== null && !isRecord(value.pivotData)) {
    warnings.warn(pivotPath, 'invalid_type', 'pivotData is { x, y, z, parts? }.');
  }
  const matrix = isMatrix(value.transform);
  const pivot = matrix
    ? null
    : (readVec3({ x: pivotData.x, y: pivotData.y, z: pivotData.z }, pivotPath, warnings) ?? null);

  const partPivots: Record<string, Vec3> = {};
  const partsPath = join(pivotPath, 'parts');
  for (const [name, entry] of readEntries(pivotData.parts, MAX_PART_ENTRIES, partsPath, warnings)) {
    const vector = readVec3(entry, join(partsPath, name), warnings);
    if (vector) setOwn(partPivots, name, vector);
  }
  return { id, partTransforms, deletedParts: [...new Set(deletedParts)], pivot, partPivots };
}

/** The models with their part transforms, deleted parts and pivots; a repeated id is dropped. */
export function parseModels(value: unknown, warnings: SceneWarnings): SceneModel[] {
  const models: SceneModel[] = [];
  readList(value, Number.MAX_SAFE_INTEGER, 'models', warnings).forEach((entry, i) => {
    const model = readModel(entry, join('models', i), warnings);
    if (!model) return;
    if (models.some((other) => other.id === model.id)) {
      warnings.warn(join(join('models', i), 'id'), 'duplicate_id', `Model id "${model.id}" is used twice.`);
      return;
    }
    models.push(model);
  });
  return models;
}
