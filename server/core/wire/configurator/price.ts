import { clampBig, decimalOf, pow10, roundDiv, scaleDecimal, toMinorUnits } from './decimal.js';
import { FACTOR_DIGITS } from './parse-pricing.js';
import { readNumberField } from './read-number-field.js';
import { resolveOptions } from './resolve-options.js';
import type { Choice, FormulaStep, Options, Price, PriceLine, Scene } from './types.js';
import { whenHolds } from './when.js';

/** A running total is clamped to ±10^15 minor units (docs/scene-format.md, Limits). */
const MAX_RUNNING_TOTAL = 10n ** 15n;

/** The number a step reads and what its default label calls it; null: missing, so the step is skipped. */
function operandOf(step: FormulaStep, scene: Scene, options: Options, fields: Record<string, unknown>) {
  const { operand } = step;
  if (operand.kind === 'value') return { value: operand.value, name: null };
  if (operand.kind === 'field') {
    const field = scene.numberFields.find((entry) => entry.id === operand.field);
    const value = field ? readNumberField(field, fields) : null;
    return value === null ? null : { value, name: field!.label };
  }
  const block = scene.optionBlocks.find((entry) => entry.id === operand.blockId);
  const selected = block && Object.hasOwn(options, block.id) ? options[block.id] : undefined;
  const value = block?.choices.find((choice) => choice.id === selected)?.value;
  return value === undefined ? null : { value, name: block!.name };
}

const DEFAULT_LABELS = { add: 'Adjustment', min: 'Price cap', max: 'Minimum price', round: 'Rounding' } as const;

/** One formula step on the running total (docs/scene-format.md, Pricing formula); null when its operand is missing. */
function applyStep(step: FormulaStep, total: bigint, scene: Scene, options: Options, fields: Record<string, unknown>) {
  const operand = operandOf(step, scene, options, fields);
  if (!operand) return null;
  const { decimals, rounding } = scene.settings.pricing;
  const amount = () => toMinorUnits(operand.value, decimals, rounding);
  switch (step.op) {
    case 'multiply': {
      const factor = scaleDecimal(decimalOf(operand.value)!, FACTOR_DIGITS, rounding);
      const n = String(operand.value);
      const name = step.label ?? operand.name;
      return {
        total: roundDiv(total * factor, pow10(FACTOR_DIGITS), rounding),
        label: name ? `${name} × ${n}` : `× ${n}`,
      };
    }
    case 'add':
      return { total: total + amount(), label: step.label ?? DEFAULT_LABELS.add };
    case 'min':
      return { total: total < amount() ? total : amount(), label: step.label ?? DEFAULT_LABELS.min };
    case 'max':
      return { total: total > amount() ? total : amount(), label: step.label ?? DEFAULT_LABELS.max };
    case 'round': {
      const unit = amount();
      if (unit <= 0n) return null;
      return { total: roundDiv(total, unit, step.mode ?? 'half-up') * unit, label: step.label ?? DEFAULT_LABELS.round };
    }
  }
}

/**
 * A configuration's price (docs/scene-format.md, Pricing blocks), null without pricing. `fields`: form values by id.
 */
export function computePrice(scene: Scene, options: Options, fields: Record<string, unknown>): Price | null {
  if (!scene.hasPricing) return null;
  const { currency, decimals, rounding, tax: taxSettings } = scene.settings.pricing;
  const selected = resolveOptions(scene, options).options;
  const lines: PriceLine[] = [];
  const add = (line: PriceLine) => {
    if (line.amount !== 0) lines.push(line);
  };

  for (const block of scene.pricingBlocks) {
    if (!whenHolds(block.when, selected)) continue;
    const amount = Number(toMinorUnits(block.price, decimals, rounding));
    add({ id: block.id, kind: 'pricing', label: block.label, amount, ...(block.sku ? { sku: block.sku } : {}) });
  }
  for (const block of scene.optionBlocks) {
    const choice = block.choices.find((entry) => Object.hasOwn(selected, block.id) && entry.id === selected[block.id]);
    if (!choice || choice.price === null) continue;
    add({
      id: `${block.id}.${choice.id}`,
      kind: 'option',
      label: `${block.name}: ${choice.label}`,
      amount: Number(toMinorUnits(choice.price, decimals, rounding)),
      blockId: block.id,
      choiceId: choice.id,
      ...(choice.sku ? { sku: choice.sku } : {}),
    });
  }
  const subtotal = clampBig(
    lines.reduce((sum, line) => sum + BigInt(line.amount), 0n),
    MAX_RUNNING_TOTAL,
  );

  let total = subtotal;
  scene.formula.forEach((step, position) => {
    if (!whenHolds(step.when, selected)) return;
    const applied = applyStep(step, total, scene, selected, fields ?? {});
    if (!applied) return;
    const next = clampBig(applied.total, MAX_RUNNING_TOTAL);
    add({
      id: `formula.${step.index ?? position}`,
      kind: 'formula',
      label: applied.label,
      amount: Number(next - total),
    });
    total = next;
  });

  let tax: Price['tax'] = null;
  if (taxSettings) {
    const rate = decimalOf(taxSettings.rate)!;
    const { label, included } = taxSettings;
    if (included) {
      const share = roundDiv(total * rate.units, pow10(rate.scale) + rate.units, rounding);
      tax = { label, rate: taxSettings.rate, included, amount: Number(share) };
    } else {
      const next = clampBig(total + roundDiv(total * rate.units, pow10(rate.scale), rounding), MAX_RUNNING_TOTAL);
      add({ id: 'tax', kind: 'tax', label, amount: Number(next - total) });
      tax = { label, rate: taxSettings.rate, included, amount: Number(next - total) };
      total = next;
    }
  }
  return { currency, decimals, subtotal: Number(subtotal), total: Number(total), lines, tax };
}

/** A choice's price in minor units (what its `+€40.00` delta shows), or null without one. */
export function choiceDelta(scene: Scene, choice: Choice): number | null {
  if (choice.price === null || choice.price === undefined) return null;
  const { decimals, rounding } = scene.settings.pricing;
  return Number(toMinorUnits(choice.price, decimals, rounding));
}
