import {
  isRecord,
  join,
  readBoolean,
  readColor,
  readEnum,
  readHttpsUrl,
  readList,
  readNumber,
  readPartialVec3,
  readText,
  type Json,
} from './owner-values.js';
import type { SceneWarnings } from './scene-warnings.js';
import type { Effect, SceneModel } from './types.js';

export const MAX_EFFECTS_PER_CHOICE = 20;
export const MAX_NODES_PER_EFFECT = 100;
const MAX_NAME = 1000;
export const EFFECT_TYPES = ['material', 'visibility', 'variant', 'transform'] as const;

/** What an effect is read against: the models, and the model its block points at. */
export interface EffectContext {
  models: SceneModel[];
  /** The block's `targetObjectId`: null means every model, undefined an unknown target (effects dropped). */
  blockModel: string | null | undefined;
  warnings: SceneWarnings;
}

/** The model an effect applies to: its own `model`, else the block's target; undefined when unknown. */
function effectModel(raw: Json, path: string, context: EffectContext): string | null | undefined {
  if (raw.model === undefined || raw.model === null) {
    if (context.blockModel === undefined) {
      context.warnings.warn(path, 'unknown_reference', "The block's targetObjectId names no model.");
    }
    return context.blockModel;
  }
  const id = typeof raw.model === 'number' ? String(raw.model) : raw.model;
  if (typeof id !== 'string' || !context.models.some((model) => model.id === id)) {
    context.warnings.warn(join(path, 'model'), 'unknown_reference', 'The effect names no model of this project.');
    return undefined;
  }
  return id;
}

/** Node names, minus the parts deleted in the effect's model (in every model when it applies to all). */
function readNodes(value: unknown, model: string | null, path: string, context: EffectContext): string[] {
  const { warnings, models } = context;
  const targets = model === null ? models : models.filter((entry) => entry.id === model);
  const names: string[] = [];
  const listed = readList(value, MAX_NODES_PER_EFFECT, path, warnings);
  if (Array.isArray(value) && value.length === 0) warnings.warn(path, 'missing_field', 'List at least one node name.');
  listed.forEach((name, i) => {
    const text = readText(name, join(path, i), warnings, MAX_NAME);
    if (text === undefined) return;
    if (targets.length > 0 && targets.every((entry) => entry.deletedParts.includes(text))) {
      warnings.warn(join(path, i), 'deleted_part', `"${text}" is a deleted part; no effect brings it back.`);
      return;
    }
    if (!names.includes(text)) names.push(text);
  });
  return names;
}

function readMaterialEffect(raw: Json, model: string | null, path: string, context: EffectContext): Effect | null {
  const { warnings } = context;
  const hasMaterial = raw.material !== undefined && raw.material !== null;
  const hasNodes = raw.nodes !== undefined && raw.nodes !== null;
  if (hasMaterial === hasNodes) {
    const code = hasMaterial ? 'invalid_value' : 'missing_field';
    warnings.warn(path, code, 'A material effect names exactly one of `material` or `nodes`.');
    return null;
  }
  const effect: Extract<Effect, { type: 'material' }> = { type: 'material', model };
  if (hasMaterial) {
    const material = readText(raw.material, join(path, 'material'), warnings, MAX_NAME);
    if (material === undefined) return null;
    effect.material = material;
  } else {
    const nodes = readNodes(raw.nodes, model, join(path, 'nodes'), context);
    if (nodes.length === 0) return null;
    effect.nodes = nodes;
  }
  const use = readText(raw.use, join(path, 'use'), warnings, MAX_NAME);
  const color = readColor(raw.color, join(path, 'color'), warnings);
  const map = readHttpsUrl(raw.map, join(path, 'map'), warnings);
  if (use !== undefined) effect.use = use;
  if (color !== undefined) effect.color = color;
  for (const key of ['roughness', 'metalness', 'opacity'] as const) {
    const factor = readNumber(raw[key], join(path, key), warnings, 0, 1);
    if (factor !== undefined) effect[key] = factor;
  }
  if (map !== undefined) effect.map = map;
  return effect;
}

function readEffect(value: unknown, path: string, context: EffectContext): Effect | null {
  const { warnings } = context;
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'An effect must be an object.');
    return null;
  }
  if (value.type === undefined) {
    warnings.warn(join(path, 'type'), 'missing_field', 'An effect needs a type.');
    return null;
  }
  const type = readEnum(value.type, EFFECT_TYPES, join(path, 'type'), warnings, 'unsupported');
  if (type === undefined) return null;
  const model = effectModel(value, path, context);
  if (model === undefined) return null;

  switch (type) {
    case 'material':
      return readMaterialEffect(value, model, path, context);
    case 'visibility': {
      if (value.visible === undefined) {
        warnings.warn(join(path, 'visible'), 'missing_field', 'A visibility effect needs `visible`.');
        return null;
      }
      const visible = readBoolean(value.visible, join(path, 'visible'), warnings);
      if (visible === undefined) return null;
      if (value.nodes === undefined || value.nodes === null) return { type, model, visible };
      const nodes = readNodes(value.nodes, model, join(path, 'nodes'), context);
      return nodes.length === 0 ? null : { type, model, nodes, visible };
    }
    case 'variant': {
      if (value.name === undefined)
        warnings.warn(join(path, 'name'), 'missing_field', 'A variant effect needs `name`.');
      const name = readText(value.name, join(path, 'name'), warnings, MAX_NAME);
      return name === undefined ? null : { type, model, name };
    }
    case 'transform': {
      if (value.nodes === undefined) warnings.warn(join(path, 'nodes'), 'missing_field', 'A transform needs `nodes`.');
      const nodes = readNodes(value.nodes, model, join(path, 'nodes'), context);
      if (nodes.length === 0) return null;
      const effect: Extract<Effect, { type: 'transform' }> = { type, model, nodes };
      for (const key of ['position', 'rotation', 'scale'] as const) {
        const vector = readPartialVec3(value[key], join(path, key), warnings);
        if (vector) effect[key] = vector;
      }
      return effect;
    }
  }
}

/** A choice's effects in order (docs/scene-format.md, Effects), at most 20; unusable ones dropped with a warning. */
export function parseEffects(value: unknown, path: string, context: EffectContext): Effect[] {
  return readList(value, MAX_EFFECTS_PER_CHOICE, path, context.warnings).flatMap((entry, i) => {
    const effect = readEffect(entry, join(path, i), context);
    return effect ? [effect] : [];
  });
}
