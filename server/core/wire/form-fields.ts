/**
 * The project's form fields (docs/scene-format.md, Form fields) read from the owner's opaque `sceneData.formFields`,
 * shared by the submit check and the element so both read the form alike. No Node imports: browser code imports it.
 */

/** A form field as the element renders it and the submit checks it. */
export interface FormField {
  id: string;
  label: string;
  type: 'text' | 'email' | 'tel' | 'number' | 'textarea' | 'select' | 'checkbox';
  required: boolean;
  options: { value: string; label: string }[];
  min?: number;
  max?: number;
  /** Greater than zero. */
  step?: number;
  minLength?: number;
  maxLength?: number;
  /** `number` fields: the initial value, within the bounds (docs/scene-format.md, Form fields). */
  default?: number;
}

/** A `number` field's bounds when the owner gives none (docs/scene-format.md, Form fields). */
const NUMBER_FIELD_MIN = 0;
const NUMBER_FIELD_MAX = 1_000_000;

const FIELD_TYPES = new Set<string>(['text', 'email', 'tel', 'number', 'textarea', 'select', 'checkbox']);
const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object';
const idOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const finite = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const positive = (value: unknown) => (finite(value) ?? 0) > 0;

/** The usable fields: entries without an id are skipped, unknown types are text, unusable bounds are dropped. */
export function readFormFields(raw: unknown): FormField[] {
  return (Array.isArray(raw) ? raw : []).filter(isRecord).flatMap((field) => {
    const id = idOf(field.id);
    if (!id) return [];
    const options = (Array.isArray(field.options) ? field.options : []).map((option) =>
      isRecord(option)
        ? { value: idOf(option.value ?? option.id), label: String(option.label ?? option.value ?? option.id ?? '') }
        : { value: String(option), label: String(option) },
    );
    const type = FIELD_TYPES.has(String(field.type)) ? (field.type as FormField['type']) : 'text';
    const read: FormField = {
      id,
      label: String(field.label ?? id),
      type,
      required: field.required === true,
      options,
      min: finite(field.min),
      max: finite(field.max),
      step: positive(field.step) ? (field.step as number) : undefined,
      minLength: positive(field.minLength) ? Math.floor(field.minLength as number) : undefined,
      maxLength: positive(field.maxLength) ? Math.floor(field.maxLength as number) : undefined,
    };
    return [type === 'number' ? withNumberBounds(read, finite(field.default)) : read];
  });
}

/**
 * A `number` field always has bounds (docs/scene-format.md, Form fields): the owner's, else 0 and 1,000,000 widened
 * to a lone bound beyond them; crossed bounds fall back to both defaults, and a default outside them is dropped.
 */
function withNumberBounds(field: FormField, initial: number | undefined): FormField {
  let { min, max } = field;
  if (min !== undefined && max !== undefined && min > max) min = max = undefined;
  min ??= Math.min(NUMBER_FIELD_MIN, max ?? NUMBER_FIELD_MIN);
  max ??= Math.max(NUMBER_FIELD_MAX, min);
  const inBounds = initial !== undefined && initial >= min && initial <= max;
  return { ...field, min, max, ...(inBounds ? { default: initial } : {}) };
}
