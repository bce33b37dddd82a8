/** The request as label/value rows, shared by the PDF and the e-mail. */

function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A readable form of any answer: lists joined, yes/no for booleans, nested objects as `key: value`. */
function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  const record = asRecord(value);
  if (record) {
    const label = record.label ?? record.name;
    if (typeof label === 'string' && Object.keys(record).length <= 3) return label;
    return Object.entries(record)
      .map(([k, v]) => `${k}: ${formatValue(v)}`)
      .join('\n');
  }
  return String(value);
}

/** The answers as label/value rows: the form's fields first, in the form's order, then anything else sent. */
export function formRows(formFields: unknown, formData: Record<string, unknown>): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  const seen = new Set<string>();
  for (const field of Array.isArray(formFields) ? formFields : []) {
    const f = asRecord(field);
    if (!f || (typeof f.id !== 'string' && typeof f.id !== 'number')) continue;
    const id = String(f.id);
    if (!(id in formData) || seen.has(id)) continue;
    seen.add(id);
    rows.push([typeof f.label === 'string' && f.label.trim() ? f.label : id, formatValue(formData[id])]);
  }
  for (const [key, value] of Object.entries(formData)) if (!seen.has(key)) rows.push([key, formatValue(value)]);
  return rows;
}

/**
 * A price in the project's currency (`€40.00`; an unknown three-letter code prefixes the
 * amount), or the plain number without a three-letter code.
 */
function formatPrice(price: number, currency: unknown): string {
  if (typeof currency === 'string' && /^[A-Za-z]{3}$/.test(currency)) {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(price);
  }
  return String(price);
}

/** The chosen options as block name / choice label rows, with a choice's price when the project gives one. */
export function optionRows(
  optionBlocks: unknown,
  selected: Record<string, unknown>,
  currency?: unknown,
): Array<[string, string]> {
  const blocks = (Array.isArray(optionBlocks) ? optionBlocks : [])
    .map(asRecord)
    .filter((b): b is Record<string, unknown> => Boolean(b));
  return Object.entries(selected).map(([key, value]) => {
    const block = blocks.find((b) => String(b.id) === key);
    const choices = Array.isArray(block?.choices)
      ? block.choices.map(asRecord).filter((c): c is Record<string, unknown> => Boolean(c))
      : [];
    const label = (v: unknown): string => {
      const choice = choices.find(
        (c) => (typeof v === 'string' || typeof v === 'number') && String(c.id) === String(v),
      );
      if (!choice) return formatValue(v);
      const name = typeof choice.label === 'string' ? choice.label : String(choice.id);
      return typeof choice.price === 'number' ? `${name} (${formatPrice(choice.price, currency)})` : name;
    };
    const text = Array.isArray(value) ? value.map(label).join(', ') : label(value);
    const name = block && typeof block.name === 'string' && block.name.trim() ? block.name : key;
    return [name, text];
  });
}

/** `2026-11-22 14:05 UTC`: unambiguous for any reader. */
export function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
