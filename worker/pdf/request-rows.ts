import { formatMoney, parseScene, resolveOptions, type Scene } from '#core/wire/configurator/index.js';
import { isPriceMismatch, type ClientPrice, type StoredPrice } from '#core/domain/request-price.js';
import type { ProjectData } from '#core/domain/scene.js';
import { formatClientPrice, priceRows, type PriceRows } from './price-rows.js';

/**
 * A request as the PDF and both e-mails print it, built once by `requestRows`: answers under their
 * form labels, the selected options in block order through the shared parser, every amount formatted
 * as docs/scene-format.md#prices says, in `pricing.locale`, else `en`. Never a raw owner number.
 */
export interface RequestRows {
  /** What dates and amounts are formatted in: `pricing.locale`, else `en`. */
  locale: string;
  /** `branding.companyName`, else the project's name. */
  companyName: string;
  projectName: string;
  requestId: string;
  /** `November 22, 2026 at 10:30 AM UTC`, in `locale`. */
  date: string;
  /** Label and answer of each form field, in form order, then anything else sent. */
  customer: Array<[string, string]>;
  options: OptionRow[];
  /** The stored price's lines, total and tax note; null without pricing. */
  price: PriceRows | null;
  /** What the visitor's page showed when it differs from the stored price (for the owner only). */
  visitorSaw: string | null;
  /** The configuration summary the page sent, trimmed. */
  summary: string;
}

export interface OptionRow {
  block: string;
  choice: string;
  /** The choice's price line as a delta (`+€25.00`); null when it has none. */
  price: string | null;
}

/** What `requestRows` reads: the stored request and its project. */
export interface RequestForRows {
  submission: {
    id: string;
    createdAt: Date;
    formData: Record<string, unknown>;
    selectedOptions: Record<string, unknown>;
    configurationSummary: string;
    price: StoredPrice | null;
    clientPrice: ClientPrice | null;
  };
  projectName: string;
  projectData: ProjectData;
}

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

/** `November 22, 2026 at 10:30 AM UTC`: the date in the reader's words, in UTC (the merchant's zone is unknown). */
function formatRequestDate(date: Date, locale: string): string {
  for (const attempt of [locale, 'en']) {
    try {
      const format = new Intl.DateTimeFormat(attempt, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
      return `${format.format(date)} UTC`;
    } catch {
      // A tag Intl does not take: English.
    }
  }
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The selected options in block order, as the shared parser resolves what was stored (defaults for
 * untouched blocks, rules applied, unknown entries left out); a choice's price is its line in the
 * stored price, so the figures are those the request was priced with.
 */
function optionRows(scene: Scene, submission: RequestForRows['submission'], locale: string): OptionRow[] {
  const { options } = resolveOptions(scene, submission.selectedOptions);
  const { price } = submission;
  return scene.optionBlocks.flatMap((block) => {
    const choice = Object.hasOwn(options, block.id) && block.choices.find((c) => c.id === options[block.id]);
    if (!choice) return [];
    const line = price?.lines.find((l) => l.kind === 'option' && l.blockId === block.id && l.choiceId === choice.id);
    return [
      {
        block: block.name,
        choice: choice.label,
        price: line && price ? formatMoney(line.amount, price, locale, { delta: true }) : null,
      },
    ];
  });
}

/** The one builder of what the PDF and the e-mails print (see RequestRows). */
export function requestRows(work: RequestForRows): RequestRows {
  const { submission, projectName, projectData } = work;
  const { scene } = parseScene(projectData);
  const { settings } = scene;
  const locale = settings.pricing.locale ?? 'en';
  const { price, clientPrice } = submission;
  return {
    locale,
    companyName: settings.branding.companyName?.trim() || projectName,
    projectName,
    requestId: submission.id,
    date: formatRequestDate(submission.createdAt, locale),
    customer: formRows(projectData.sceneData?.formFields, submission.formData),
    options: optionRows(scene, submission, locale),
    price: price && priceRows(price, locale),
    visitorSaw: clientPrice && isPriceMismatch(price, clientPrice) ? formatClientPrice(clientPrice, locale) : null,
    summary: submission.configurationSummary.trim(),
  };
}
