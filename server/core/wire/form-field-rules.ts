import type { FormFieldMessages } from './form-field-messages.js';
import type { FormField } from './form-fields.js';

/**
 * The form field rules of a submit (docs/api.md, Submit), shared by the server and the element.
 * No Node imports: browser code imports it.
 */

/** One field that fails a rule; `rule` is the key of its message. */
export interface FieldProblem {
  id: string;
  rule: keyof FormFieldMessages;
  message: string;
}

/** A pragmatic address shape, not RFC 5322: one @, no spaces, a dot inside the domain. */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const MAX_EMAIL_LENGTH = 254;
/** Digits with the usual separators, an optional leading +; 3 to 20 digits (E.164 has 15, plus an extension). */
const TEL = /^\+?[\d\s()./-]+$/;
const MAX_TEL_LENGTH = 40;

/** A required answer that is missing: absent, null, blank, an empty list, or an unticked checkbox. */
function isEmptyAnswer(value: unknown, type: FormField['type']): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (value === false) return type === 'checkbox';
  return false;
}

export const isEmailAddress = (value: string) => value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value);

function isPhoneNumber(value: string) {
  const digits = value.replace(/\D/g, '').length;
  return value.length <= MAX_TEL_LENGTH && TEL.test(value) && digits >= 3 && digits <= 20;
}

/** Numeric text as a form sends it; unambiguous, so a long string of digits is checked in linear time. */
const NUMERIC = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const MAX_NUMERIC_LENGTH = 64;

/** Whether `value` lies on the step grid from `base`, allowing for binary fractions (0.1 + 0.2). */
function onStep(value: number, base: number, step: number) {
  const steps = (value - base) / step;
  return Math.abs(steps - Math.round(steps)) <= 1e-9 * Math.max(1, Math.abs(steps));
}

/** The first rule a present answer breaks, with its placeholders, or null. */
function breach(field: FormField, value: unknown): [keyof FormFieldMessages, Record<string, number>?] | null {
  switch (field.type) {
    case 'checkbox':
      return typeof value === 'boolean' ? null : ['fieldCheckbox'];
    case 'number': {
      // HTML forms and many API clients send numbers as text: "3" counts as 3.
      if (typeof value === 'string' && value.length <= MAX_NUMERIC_LENGTH && NUMERIC.test(value.trim())) {
        value = Number(value);
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) return ['fieldNumber'];
      const { min, max, step } = field;
      if (min !== undefined && value < min) return ['fieldMin', { min }];
      if (max !== undefined && value > max) return ['fieldMax', { max }];
      const base = min ?? 0;
      if (step !== undefined && !onStep(value, base, step))
        return onStep(base, 0, step) ? ['fieldStep', { step }] : ['fieldStepFrom', { step, base }];
      return null;
    }
    case 'select':
      // A select without options is the owner's unfinished form: any one answer goes.
      if (typeof value !== 'string' && typeof value !== 'number') return ['fieldOption'];
      return field.options.length === 0 || field.options.some((option) => option.value === String(value))
        ? null
        : ['fieldOption'];
    default: {
      if (typeof value !== 'string') return [field.type === 'email' ? 'fieldEmail' : 'fieldText'];
      const { minLength, maxLength } = field;
      if (maxLength !== undefined && value.length > maxLength) return ['fieldTooLong', { maxLength }];
      if (minLength !== undefined && value.length < minLength) return ['fieldTooShort', { minLength }];
      if (field.type === 'email' && !isEmailAddress(value)) return ['fieldEmail'];
      if (field.type === 'tel' && !isPhoneNumber(value)) return ['fieldTel'];
      return null;
    }
  }
}

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));

/**
 * The fields whose answers break a rule, in form order, one problem each; an empty optional answer passes.
 * `messages`: FORM_FIELD_MESSAGES or a translation.
 */
export function checkFormFields(
  fields: readonly FormField[],
  answers: Record<string, unknown>,
  messages: FormFieldMessages,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of fields) {
    const value = answers[field.id];
    const found: ReturnType<typeof breach> = isEmptyAnswer(value, field.type)
      ? field.required
        ? ['fieldRequired']
        : null
      : breach(field, value);
    if (!found) continue;
    const [rule, values = {}] = found;
    problems.push({ id: field.id, rule, message: fill(messages[rule], { label: field.label, ...values }) });
  }
  return problems;
}
