import type { NumberField } from './types.js';

/** Numeric text as a form sends it ("3", "2.5", "1e3"); the same shape the submit rules accept. */
const NUMERIC = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const MAX_NUMERIC_LENGTH = 64;

/**
 * A number field's value as pricing reads it (docs/scene-format.md, Pricing formula): a number or numeric text,
 * clamped to the field's bounds; empty or unreadable: the field's default; none: null (the step is skipped).
 */
export function readNumberField(field: NumberField, fields: Record<string, unknown> | undefined): number | null {
  const raw = fields && typeof fields === 'object' && Object.hasOwn(fields, field.id) ? fields[field.id] : undefined;
  let value: number | null = null;
  if (typeof raw === 'number' && Number.isFinite(raw)) value = raw;
  else if (typeof raw === 'string' && raw.length <= MAX_NUMERIC_LENGTH && NUMERIC.test(raw.trim())) value = Number(raw);
  if (value === null || !Number.isFinite(value)) value = field.default;
  return value === null ? null : Math.min(field.max, Math.max(field.min, value));
}
