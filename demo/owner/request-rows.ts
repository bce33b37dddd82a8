import type { ProjectLabels } from './api.js';

/**
 * A request's form data and selected options as labelled rows, with the project's own labels
 * (form field labels, option block names, choice labels); ids stand in where the project has none.
 */
export type Row = [label: string, value: string];

const text = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : typeof value === 'boolean'
        ? value
          ? 'Yes'
          : 'No'
        : typeof value === 'number'
          ? String(value)
          : Array.isArray(value)
            ? value.map(text).join(', ')
            : JSON.stringify(value);

/** A key the project gives no label for, readable: `delivery_date` becomes "Delivery date". */
const humanize = (key: string) => {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function formRows(data: object, labels: ProjectLabels): Row[] {
  const formData = data as Record<string, unknown>;
  const fields = labels.formFields ?? [];
  const known = fields.filter((f) => f.id && f.id in formData).map((f) => [f.label || f.id!, text(formData[f.id!])]);
  const extra = Object.keys(formData)
    .filter((key) => !fields.some((f) => f.id === key))
    .map((key) => [humanize(key), text(formData[key])]);
  return [...known, ...extra] as Row[];
}

export function optionRows(selected: object, labels: ProjectLabels): Row[] {
  return Object.entries(selected as Record<string, unknown>).map(([blockId, choice]) => {
    const block = labels.optionBlocks?.find((b) => b.id === blockId);
    const chosen = typeof choice === 'string' ? block?.choices?.find((c) => c.id === choice)?.label : undefined;
    return [block?.name || humanize(blockId), chosen ?? text(choice)];
  });
}

/** Who sent the request, as the list shows it: the name field, with the e-mail when there is one. */
export function customerOf(data: object): string {
  const formData = data as Record<string, unknown>;
  const pick = (...keys: string[]) => keys.map((k) => formData[k]).find((v) => typeof v === 'string' && v.trim());
  const name = pick('name', 'fullName', 'full_name', 'customerName', 'company') as string | undefined;
  const email = pick('email', 'e-mail', 'mail') as string | undefined;
  if (name && email) return `${name} (${email})`;
  return name ?? email ?? '—';
}
