import { readFormFields } from '../form-fields.js';
import {
  isGiven,
  isRecord,
  join,
  readEnum,
  readId,
  readLabel,
  readList,
  readNumber,
  readText,
  MAX_ID_LENGTH,
  MAX_LABEL_LENGTH,
  MAX_OWNER_NUMBER,
} from './owner-values.js';
import type { SceneWarnings } from './scene-warnings.js';
import type { FormulaOperand, FormulaStep, NumberField, OptionBlock, PricingBlock } from './types.js';
import { readWhen } from './when.js';

/** Pricing limits (docs/scene-format.md, Limits). */
export const MAX_PRICING_BLOCKS = 100;
export const MAX_FORMULA_STEPS = 50;
export const FORMULA_OPS = ['add', 'multiply', 'min', 'max', 'round'] as const;
export const ROUND_MODES = ['half-up', 'half-even', 'up', 'down'] as const;
/** A multiply factor is exact to 6 decimals (docs/scene-format.md, Pricing formula). */
export const FACTOR_DIGITS = 6;

/**
 * `pricingBlocks` (docs/scene-format.md, Pricing blocks): a line while its `when` holds; an unknown reference drops the
 * block.
 */
export function parsePricingBlocks(value: unknown, blocks: OptionBlock[], warnings: SceneWarnings): PricingBlock[] {
  const path = 'sceneData.pricingBlocks';
  const pricing: PricingBlock[] = [];
  readList(value, MAX_PRICING_BLOCKS, path, warnings).forEach((entry, i) => {
    const at = join(path, i);
    if (!isRecord(entry)) return warnings.warn(at, 'invalid_type', 'A pricing block must be an object.');
    const given = isGiven(entry.id) ? readId(entry.id, join(at, 'id'), warnings) : undefined;
    if (given === undefined && isGiven(entry.id)) return;
    const id = given ?? at.slice('sceneData.'.length);
    if (pricing.some((other) => other.id === id)) {
      return warnings.warn(join(at, 'id'), 'duplicate_id', `Pricing block id "${id}" is used twice.`);
    }
    const price = readNumber(entry.price, join(at, 'price'), warnings);
    if (isGiven(entry.price) && price === undefined) return;
    const when = isGiven(entry.when) ? readWhen(entry.when, blocks, join(at, 'when'), warnings) : null;
    if (isGiven(entry.when) && !when) return;
    const block: PricingBlock = {
      id,
      label: readLabel(entry.label, id, join(at, 'label'), warnings),
      price: price ?? 0,
      when,
    };
    const sku = readText(entry.sku, join(at, 'sku'), warnings, MAX_ID_LENGTH);
    if (sku !== undefined) block.sku = sku;
    pricing.push(block);
  });
  return pricing;
}

/** `number` form fields as pricing reads them: bounds 0 and 1,000,000 unless the owner set them. */
export function parseNumberFields(value: unknown, warnings: SceneWarnings): NumberField[] {
  const raw = Array.isArray(value) ? value : [];
  const fields = readFormFields(value).filter((field) => field.type === 'number');
  // Warn about what readFormFields quietly corrected, so the scene report shows it.
  raw.forEach((entry, i) => {
    if (!isRecord(entry) || entry.type !== 'number') return;
    const at = join('sceneData.formFields', i);
    const min = readNumber(entry.min, join(at, 'min'), warnings);
    const max = readNumber(entry.max, join(at, 'max'), warnings);
    if (min !== undefined && max !== undefined && min > max) {
      warnings.warn(join(at, 'min'), 'invalid_value', 'min is above max; the bounds 0 and 1,000,000 apply.');
    }
    const initial = readNumber(entry.default, join(at, 'default'), warnings);
    const field = fields.find((candidate) => candidate.id === String(entry.id));
    if (initial !== undefined && field && field.default === undefined) {
      warnings.warn(join(at, 'default'), 'invalid_value', 'The default lies outside the bounds; none is used.');
    }
  });
  const seen = new Set<string>();
  return fields.flatMap((field) => {
    if (seen.has(field.id)) return [];
    seen.add(field.id);
    const min = Math.max(field.min ?? 0, -MAX_OWNER_NUMBER);
    const max = Math.min(field.max ?? 0, MAX_OWNER_NUMBER);
    const label = field.label.slice(0, MAX_LABEL_LENGTH);
    const read: NumberField = { id: field.id, label, min, max, default: field.default ?? null };
    if (field.step !== undefined) read.step = field.step;
    return [read];
  });
}

function readOperand(
  entry: Record<string, unknown>,
  at: string,
  context: { blocks: OptionBlock[]; fields: NumberField[]; warnings: SceneWarnings },
): FormulaOperand | null {
  const { warnings } = context;
  const given = (['value', 'field', 'option'] as const).filter((key) => isGiven(entry[key]));
  if (given.length !== 1) {
    const code = given.length === 0 ? 'missing_field' : 'invalid_value';
    warnings.warn(at, code, 'A formula step has exactly one of `value`, `field` or `option`.');
    return null;
  }
  const key = given[0];
  if (key === 'value') {
    const value = readNumber(entry.value, join(at, 'value'), warnings);
    return value === undefined ? null : { kind: 'value', value };
  }
  const id = readId(entry[key], join(at, key), warnings);
  if (id === undefined) return null;
  if (key === 'field') {
    if (context.fields.some((field) => field.id === id)) return { kind: 'field', field: id };
    warnings.warn(join(at, 'field'), 'unknown_reference', `No number form field "${id}".`);
    return null;
  }
  if (context.blocks.some((block) => block.id === id)) return { kind: 'option', blockId: id };
  warnings.warn(join(at, 'option'), 'unknown_reference', `No option block "${id}".`);
  return null;
}

/**
 * `pricingFormula` (docs/scene-format.md, Pricing formula): ordered steps on the running total; never an evaluation of
 * owner text.
 */
export function parseFormula(
  value: unknown,
  blocks: OptionBlock[],
  fields: NumberField[],
  warnings: SceneWarnings,
): FormulaStep[] {
  const path = 'sceneData.pricingFormula';
  const steps: FormulaStep[] = [];
  readList(value, MAX_FORMULA_STEPS, path, warnings).forEach((entry, index) => {
    const at = join(path, index);
    if (!isRecord(entry)) return warnings.warn(at, 'invalid_type', 'A formula step must be an object.');
    if (entry.op === undefined) return warnings.warn(join(at, 'op'), 'missing_field', 'A formula step needs `op`.');
    const op = readEnum(entry.op, FORMULA_OPS, join(at, 'op'), warnings, 'unsupported');
    if (op === undefined) return;
    const operand = readOperand(entry, at, { blocks, fields, warnings });
    if (!operand) return;
    if (op === 'round' && operand.kind === 'value' && operand.value <= 0) {
      return warnings.warn(join(at, 'value'), 'invalid_value', 'A rounding step must be above 0.');
    }
    const when = isGiven(entry.when) ? readWhen(entry.when, blocks, join(at, 'when'), warnings) : null;
    if (isGiven(entry.when) && !when) return;
    const label = isGiven(entry.label) ? readLabel(entry.label, '', join(at, 'label'), warnings) || null : null;
    const step: FormulaStep = { op, operand, when, label, index };
    if (op === 'round') step.mode = readEnum(entry.mode, ROUND_MODES, join(at, 'mode'), warnings) ?? 'half-up';
    steps.push(step);
  });
  return steps;
}
