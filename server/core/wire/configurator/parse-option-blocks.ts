import { parseEffects } from './parse-effects.js';
import {
  isRecord,
  join,
  readBoolean,
  readColor,
  readEnum,
  readHttpsUrl,
  readId,
  readLabel,
  readList,
  readNumber,
  readText,
  MAX_ID_LENGTH,
  type Json,
} from './owner-values.js';
import type { SceneWarnings } from './scene-warnings.js';
import type { Choice, OptionBlock, OptionRule, SceneModel } from './types.js';
import { readWhen } from './when.js';

/** Option block limits (docs/scene-format.md, Limits). */
export const MAX_OPTION_BLOCKS = 100;
export const MAX_CHOICES_PER_BLOCK = 100;
const MAX_CHOICES = 2000;
export const MAX_RULES_PER_BLOCK = 20;
export const BLOCK_TYPES = ['choice', 'swatch', 'toggle'] as const;

interface BlockContext {
  models: SceneModel[];
  warnings: SceneWarnings;
  /** Choices still allowed in the project (2,000 in all). */
  choicesLeft: number;
}

function readChoice(
  value: unknown,
  path: string,
  blockModel: string | null | undefined,
  context: BlockContext,
): (Choice & { isDefault: boolean }) | null {
  const { warnings } = context;
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'A choice must be an object.');
    return null;
  }
  const id = readId(value.id, join(path, 'id'), warnings);
  if (id === undefined) return null;
  const choice: Choice & { isDefault: boolean } = {
    id,
    label: readLabel(value.label, id, join(path, 'label'), warnings),
    price: readNumber(value.price, join(path, 'price'), warnings) ?? null,
    effects: parseEffects(value.effects, join(path, 'effects'), { ...context, blockModel }),
    isDefault: readBoolean(value.default, join(path, 'default'), warnings) === true,
  };
  const color = readColor(value.color, join(path, 'color'), warnings);
  const thumbnail = readHttpsUrl(value.thumbnail, join(path, 'thumbnail'), warnings);
  const sku = readText(value.sku, join(path, 'sku'), warnings, MAX_ID_LENGTH);
  const number = readNumber(value.value, join(path, 'value'), warnings);
  if (color !== undefined) choice.color = color;
  if (thumbnail !== undefined) choice.thumbnail = thumbnail;
  if (sku !== undefined) choice.sku = sku;
  if (number !== undefined) choice.value = number;
  return choice;
}

function readChoices(raw: Json, path: string, blockModel: string | null | undefined, context: BlockContext) {
  const { warnings } = context;
  const choices: (Choice & { isDefault: boolean })[] = [];
  readList(raw.choices, MAX_CHOICES_PER_BLOCK, path, warnings).forEach((entry, i) => {
    if (context.choicesLeft <= 0) {
      if (context.choicesLeft === 0) {
        warnings.warn(join(path, i), 'limit_exceeded', `At most ${MAX_CHOICES} choices per project.`);
      }
      context.choicesLeft = -1;
      return;
    }
    const choice = readChoice(entry, join(path, i), blockModel, context);
    if (!choice) return;
    if (choices.some((other) => other.id === choice.id)) {
      warnings.warn(join(join(path, i), 'id'), 'duplicate_id', `Choice id "${choice.id}" is used twice in this block.`);
      return;
    }
    context.choicesLeft--;
    choices.push(choice);
  });
  return choices;
}

function readRule(value: unknown, block: OptionBlock, earlier: OptionBlock[], path: string, warnings: SceneWarnings) {
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'A rule is { when, hide?, disable?, hideBlock? }.');
    return null;
  }
  if (value.when === undefined) {
    warnings.warn(join(path, 'when'), 'missing_field', 'A rule needs `when`.');
    return null;
  }
  const when = readWhen(value.when, earlier, join(path, 'when'), warnings);
  if (!when) return null;
  const choiceIds = (key: 'hide' | 'disable') =>
    readList(value[key], MAX_CHOICES_PER_BLOCK, join(path, key), warnings).flatMap((raw, i) => {
      const id = readId(raw, join(join(path, key), i), warnings);
      if (id === undefined) return [];
      if (block.choices.some((choice) => choice.id === id)) return [id];
      warnings.warn(join(join(path, key), i), 'unknown_reference', `This block has no choice "${id}".`);
      return [];
    });
  const rule: OptionRule = {
    when,
    hide: choiceIds('hide'),
    disable: choiceIds('disable'),
    hideBlock: readBoolean(value.hideBlock, join(path, 'hideBlock'), warnings) === true,
  };
  return rule;
}

function readBlock(value: unknown, path: string, earlier: OptionBlock[], context: BlockContext): OptionBlock | null {
  const { warnings, models } = context;
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'An option block must be an object.');
    return null;
  }
  const id = readId(value.id, join(path, 'id'), warnings);
  if (id === undefined) return null;
  if (earlier.some((other) => other.id === id)) {
    warnings.warn(join(path, 'id'), 'duplicate_id', `Option block id "${id}" is used twice.`);
    return null;
  }
  // An unknown target drops the effects that default to it, not the block.
  let target: string | null | undefined = null;
  if (value.targetObjectId !== undefined && value.targetObjectId !== null) {
    const raw = typeof value.targetObjectId === 'number' ? String(value.targetObjectId) : value.targetObjectId;
    target = models.find((model) => model.id === raw)?.id;
    if (target === undefined) {
      warnings.warn(join(path, 'targetObjectId'), 'unknown_reference', 'targetObjectId names no model.');
    }
  }
  const choices = readChoices(value, join(path, 'choices'), target, context);
  if (choices.length === 0) {
    warnings.warn(join(path, 'choices'), 'missing_field', 'A block without a valid choice is dropped.');
    return null;
  }
  let type = readEnum(value.type, BLOCK_TYPES, join(path, 'type'), warnings) ?? 'choice';
  if (type === 'toggle' && choices.length !== 2) {
    warnings.warn(
      join(path, 'type'),
      'invalid_value',
      'A toggle has exactly two choices (off, on); shown as a choice.',
    );
    type = 'choice';
  }
  if (type === 'swatch') {
    choices.forEach((choice, i) => {
      if (choice.thumbnail === undefined && choice.color === undefined) {
        warnings.warn(
          join(join(path, 'choices'), i),
          'missing_field',
          'A swatch without thumbnail or color shows its label.',
        );
      }
    });
  }
  const block: OptionBlock = {
    id,
    name: readLabel(value.name, id, join(path, 'name'), warnings),
    type,
    targetObjectId: target ?? null,
    choices: choices.map(({ isDefault: _isDefault, ...choice }) => choice),
    defaultChoiceId: choices.find((choice) => choice.isDefault)?.id ?? null,
    rules: [],
  };
  const rulesPath = join(path, 'rules');
  block.rules = readList(value.rules, MAX_RULES_PER_BLOCK, rulesPath, warnings).flatMap((entry, i) => {
    const rule = readRule(entry, block, earlier, join(rulesPath, i), warnings);
    return rule ? [rule] : [];
  });
  return block;
}

/**
 * The option blocks in order (docs/scene-format.md, Option blocks and Option rules); a rule may name only earlier
 * blocks.
 */
export function parseOptionBlocks(value: unknown, models: SceneModel[], warnings: SceneWarnings): OptionBlock[] {
  const path = 'sceneData.optionBlocks';
  const context: BlockContext = { models, warnings, choicesLeft: MAX_CHOICES };
  const blocks: OptionBlock[] = [];
  readList(value, MAX_OPTION_BLOCKS, path, warnings).forEach((entry, i) => {
    const block = readBlock(entry, join(path, i), blocks, context);
    if (block) blocks.push(block);
  });
  return blocks;
}
