import {
  isRecord,
  join,
  readBoolean,
  readEnum,
  readId,
  readLabel,
  readList,
  readNumber,
  readText,
} from './owner-values.js';
import type { SceneWarnings } from './scene-warnings.js';
import type { AnimationBlock, OptionBlock, SceneModel } from './types.js';

export const MAX_ANIMATION_BLOCKS = 50;
export const TRIGGERS = ['button', 'load', 'choice'] as const;
export const LOOPS = ['once', 'repeat', 'pingpong'] as const;

function readOn(value: unknown, blocks: OptionBlock[], path: string, warnings: SceneWarnings) {
  if (!isRecord(value)) {
    warnings.warn(
      path,
      value === undefined ? 'missing_field' : 'invalid_type',
      'A choice trigger needs on: { blockId, choiceId }.',
    );
    return null;
  }
  const blockId = readId(value.blockId, join(path, 'blockId'), warnings);
  const choiceId = readId(value.choiceId, join(path, 'choiceId'), warnings);
  if (blockId === undefined || choiceId === undefined) return null;
  const block = blocks.find((entry) => entry.id === blockId);
  if (!block) {
    warnings.warn(join(path, 'blockId'), 'unknown_reference', `No option block "${blockId}".`);
    return null;
  }
  if (!block.choices.some((choice) => choice.id === choiceId)) {
    warnings.warn(join(path, 'choiceId'), 'unknown_reference', `Block "${blockId}" has no choice "${choiceId}".`);
    return null;
  }
  return { blockId, choiceId };
}

function readAnimation(
  value: unknown,
  path: string,
  blocks: OptionBlock[],
  models: SceneModel[],
  warnings: SceneWarnings,
) {
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'An animation block must be an object.');
    return null;
  }
  const id = readId(value.id, join(path, 'id'), warnings);
  if (value.clip === undefined) warnings.warn(join(path, 'clip'), 'missing_field', 'An animation block needs `clip`.');
  const clip = readText(value.clip, join(path, 'clip'), warnings, 1000);
  if (value.trigger === undefined)
    warnings.warn(join(path, 'trigger'), 'missing_field', 'An animation block needs `trigger`.');
  const trigger = readEnum(value.trigger, TRIGGERS, join(path, 'trigger'), warnings, 'unsupported');
  if (id === undefined || clip === undefined || trigger === undefined) return null;
  const on = trigger === 'choice' ? readOn(value.on, blocks, join(path, 'on'), warnings) : null;
  if (trigger === 'choice' && !on) return null;
  let model: string | null = null;
  if (value.model !== undefined && value.model !== null) {
    const raw = typeof value.model === 'number' ? String(value.model) : value.model;
    model = models.find((entry) => entry.id === raw)?.id ?? null;
    if (model === null) {
      warnings.warn(join(path, 'model'), 'unknown_reference', 'The animation names no model of this project.');
      return null;
    }
  }
  const loop = readEnum(value.loop, LOOPS, join(path, 'loop'), warnings) ?? 'once';
  const animation: AnimationBlock = {
    id,
    name: readLabel(value.name, id, join(path, 'name'), warnings),
    clip,
    trigger,
    on,
    model,
    loop,
    speed: readNumber(value.speed, join(path, 'speed'), warnings, 0.1, 10) ?? 1,
    reverse: readBoolean(value.reverse, join(path, 'reverse'), warnings) ?? (trigger === 'choice' && loop === 'once'),
  };
  return animation;
}

/**
 * `animationBlocks` (docs/scene-format.md, Animation blocks): at most 50; a choice trigger must name an existing block
 * and choice.
 */
export function parseAnimations(
  value: unknown,
  blocks: OptionBlock[],
  models: SceneModel[],
  warnings: SceneWarnings,
): AnimationBlock[] {
  const path = 'sceneData.animationBlocks';
  const animations: AnimationBlock[] = [];
  readList(value, MAX_ANIMATION_BLOCKS, path, warnings).forEach((entry, i) => {
    const animation = readAnimation(entry, join(path, i), blocks, models, warnings);
    if (!animation) return;
    if (animations.some((other) => other.id === animation.id)) {
      return warnings.warn(join(join(path, i), 'id'), 'duplicate_id', `Animation id "${animation.id}" is used twice.`);
    }
    animations.push(animation);
  });
  return animations;
}
