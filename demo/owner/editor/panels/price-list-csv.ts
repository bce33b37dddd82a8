import type { ProjectDataDraft } from '../editor-types.js';
import { isRecord, listAt, setIn } from './draft-edit.js';
import { ruleText } from './number-rule.js';
import { amountRule, MAX_ID_LENGTH, MAX_LABEL_LENGTH, MAX_OWNER_NUMBER } from './prices.js';
import { BLOCKS, idOf } from './scene-lists.js';

/**
 * The price list (docs/owner-console.md, "Price lists"): the choices as RFC 4180 CSV, and the same columns read
 * back. Only label, price and sku change; a row that cannot apply is listed and changes nothing.
 */
const PRICE_LIST_COLUMNS = ['blockId', 'blockName', 'choiceId', 'label', 'price', 'sku'] as const;

const PRICE_COLUMN = PRICE_LIST_COLUMNS.indexOf('price');

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** What spreadsheets read as the start of a formula: such a text cell is written with a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet shows as text, never runs (OWASP, "CSV injection"); `unguard` reads it back. */
const guard = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);
const unguard = (text: string) => (text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text);

/** One field as RFC 4180 writes it: quoted when it holds a comma, a quote, CR or LF. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows as RFC 4180 text: CRLF line ends, a final CRLF. */
export function writeCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvField).join(',') + '\r\n').join('');
}

/** Parses RFC 4180 text (CRLF or LF, quoted fields with "" and line breaks); a UTF-8 BOM is dropped. */
export function parseCsv(text: string): { rows: string[][]; error?: string } {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      i++;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' || char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (char === '\r' && source[i + 1] === '\n') i++;
    } else field += char;
    i++;
  }
  if (quoted) return { rows, error: `Row ${rows.length + 1} opens a quote that never closes.` };
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return { rows };
}

/** The choices of every block as CSV text with a header row. */
export function priceListCsv(data: ProjectDataDraft): string {
  const rows: string[][] = [[...PRICE_LIST_COLUMNS]];
  for (const block of listAt(data, BLOCKS)) {
    if (!isRecord(block)) continue;
    const blockName = typeof block.name === 'string' ? block.name : idOf(block);
    for (const choice of Array.isArray(block.choices) ? block.choices : []) {
      if (!isRecord(choice)) continue;
      const price = typeof choice.price === 'number' && Number.isFinite(choice.price) ? String(choice.price) : '';
      const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
      const [blockId, choiceId, label, sku] = [idOf(block), idOf(choice), text(choice.label), text(choice.sku)];
      rows.push([guard(blockId), guard(blockName), guard(choiceId), guard(label), price, guard(sku)]);
    }
  }
  return writeCsv(rows);
}

export interface PriceListProblem {
  /** 1-based, the header being row 1 (as a spreadsheet numbers it). */
  row: number;
  message: string;
}

export interface PriceListImport {
  data: ProjectDataDraft;
  /** Choices whose label, price or sku changed. */
  changed: number;
  problems: PriceListProblem[];
}

function readPrice(text: string): number | undefined | 'bad' {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = NUMBER.test(trimmed) ? Number(trimmed) : NaN;
  return Number.isFinite(value) && Math.abs(value) <= MAX_OWNER_NUMBER ? value : 'bad';
}

/** Applies a price list to `data`: rows matched by blockId and choiceId; unknown rows and bad values are listed. */
export function importPriceList(data: ProjectDataDraft, text: string): PriceListImport {
  const { rows, error } = parseCsv(text);
  if (error) return { data, changed: 0, problems: [{ row: rows.length + 1, message: error }] };
  const header = rows[0]?.map((name) => name.trim());
  if (!header || PRICE_LIST_COLUMNS.some((name, i) => header[i] !== name)) {
    return {
      data,
      changed: 0,
      problems: [{ row: 1, message: `The first row must be the columns ${PRICE_LIST_COLUMNS.join(',')}.` }],
    };
  }
  const problems: PriceListProblem[] = [];
  let blocks = listAt(data, BLOCKS);
  let changed = 0;
  const seen = new Set<string>();
  rows.slice(1).forEach((cells, i) => {
    const row = i + 2;
    if (cells.length === 1 && cells[0].trim() === '') return;
    if (cells.length !== PRICE_LIST_COLUMNS.length) {
      return problems.push({ row, message: `Expected ${PRICE_LIST_COLUMNS.length} columns, found ${cells.length}.` });
    }
    const [blockId, , choiceId, label, priceText, sku] = cells.map((cell, column) =>
      column === PRICE_COLUMN ? cell : unguard(cell),
    );
    const blockIndex = blocks.findIndex((block) => idOf(block) === blockId);
    const block = blocks[blockIndex];
    const choices = isRecord(block) && Array.isArray(block.choices) ? block.choices : [];
    const choiceIndex = choices.findIndex((choice) => idOf(choice) === choiceId);
    if (choiceIndex < 0) {
      return problems.push({ row, message: `No choice "${choiceId}" in block "${blockId}".` });
    }
    const key = JSON.stringify([blockId, choiceId]);
    if (seen.has(key)) return problems.push({ row, message: `Choice "${choiceId}" of "${blockId}" is listed twice.` });
    seen.add(key);
    const price = readPrice(priceText);
    if (price === 'bad') {
      return problems.push({
        row,
        message: `"${priceText}": ${ruleText(amountRule('Price'))} (a dot for decimals).`,
      });
    }
    if (label.length > MAX_LABEL_LENGTH) {
      return problems.push({ row, message: `A label has at most ${MAX_LABEL_LENGTH} characters.` });
    }
    if (sku.length > MAX_ID_LENGTH)
      return problems.push({ row, message: `A SKU has at most ${MAX_ID_LENGTH} characters.` });
    const choice = choices[choiceIndex] as Record<string, unknown>;
    const next: Record<string, unknown> = { ...choice };
    // An empty cell removes the value: no label shows the id, no price means no price line.
    for (const [name, value] of [
      ['label', label || undefined],
      ['price', price],
      ['sku', sku || undefined],
    ] as const) {
      if (value === undefined) delete next[name];
      else next[name] = value;
    }
    if (['label', 'price', 'sku'].every((name) => next[name] === choice[name])) return;
    changed++;
    blocks = setIn(blocks, [blockIndex, 'choices', choiceIndex], next);
  });
  return { data: changed ? setIn(data, BLOCKS, blocks) : data, changed, problems };
}
