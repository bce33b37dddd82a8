import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { imageDimensions, isScreenshotSizeAllowed } from '../../server/core/domain/image-dimensions.js';

/**
 * The request PDF: the document an owner forwards to the customer, or files with the order.
 * A header in the project's brand colour, the request id and date, the visitor's answers under
 * their form labels, the chosen options by name, the configuration summary and the screenshots.
 *
 * Rendering is synchronous CPU work, and pdfkit decodes PNGs with an alpha channel in
 * JavaScript at width × height × 4 bytes whatever the file size, so a screenshot is embedded
 * only when its header declares a size within the screenshot limits (image-dimensions.ts); the
 * PDF step runs this in the CPU pool (render-in-pool.ts), off the worker's event loop, and
 * hands it every screenshot already made a small JPEG (screenshot-for-pdf.ts), which pdfkit
 * embeds without decoding.
 *
 * Text is set in DejaVu Sans (the `dejavu-fonts-ttf` package), embedded as subsets of the glyphs
 * used: it covers Latin, Greek, Cyrillic and the currency signs the standard PDF fonts lack
 * (`€`, `Ł`, `ř`, ...). A character it has no glyph for (CJK, emoji) shows as an empty box.
 */
export interface RequestPdfInput {
  requestId: string;
  projectName: string;
  createdAt: Date;
  /** `#rgb` or `#rrggbb`; anything else falls back to the default. */
  brandColor?: unknown;
  /** The project's sceneData.formFields (labels and order of the answers). */
  formFields?: unknown;
  /** The project's sceneData.optionBlocks (names of blocks and choices). */
  optionBlocks?: unknown;
  /** ISO 4217 code of the project's prices (projectSettings.currency); prices are plain numbers without one. */
  currency?: unknown;
  formData: Record<string, unknown>;
  selectedOptions: Record<string, unknown>;
  configurationSummary: string;
  /** PNG and JPEG are embedded; `unreadable` (bytes that could not be decoded) and other types are listed. */
  screenshots: Array<{ mimeType: string; data: Buffer | null; unreadable?: boolean }>;
}

/** pdfkit's openImage (missing from its type definitions): decodes the header once for sizing and embedding. */
interface OpenImage {
  openImage(src: Buffer): { width: number; height: number };
}

export const DEFAULT_BRAND_COLOR = '#1f3a5f';
const TEXT = '#1d1d1f';
const MUTED = '#6b7280';
const RULE = '#d1d5db';
const MARGIN = 50;
const LABEL_WIDTH = 170;

/** A colour pdfkit accepts, from what owners type into their settings. */
export function brandColorOf(value: unknown): string {
  if (typeof value !== 'string') return DEFAULT_BRAND_COLOR;
  const v = value.trim();
  if (/^#[0-9a-f]{6}$/i.test(v)) return v.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join('')}`.toLowerCase();
  return DEFAULT_BRAND_COLOR;
}

/** White or near-black, whichever reads better on the brand colour. */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? TEXT : '#ffffff';
}

/** The three faces the document uses, by the names they are registered under in each document. */
const FONT_FILES = { body: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', italic: 'DejaVuSans-Oblique.ttf' } as const;
type FontName = keyof typeof FONT_FILES;

let fontBytes: Record<FontName, Buffer> | undefined;

/**
 * The font files, read from the installed `dejavu-fonts-ttf` package on first use and kept by
 * the module. A render thread renders one PDF, so there this is one read; it saves the reads
 * where the module renders in place (the fallback without screenshots, tests).
 */
function requestPdfFonts(): Record<FontName, Buffer> {
  if (!fontBytes) {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    const read = (file: string) => readFileSync(path.join(dir, file));
    fontBytes = { body: read(FONT_FILES.body), bold: read(FONT_FILES.bold), italic: read(FONT_FILES.italic) };
  }
  return fontBytes;
}

/** What pdfkit's embedded font keeps of the widths it writes into the PDF (not in its type definitions). */
interface EmbeddedFontState {
  _font?: {
    widths?: Array<number | undefined>;
    scale?: unknown;
    font?: { getGlyph?(id: number): { advanceWidth: number } };
  };
}

/**
 * pdfkit (0.20) writes the width of glyph 0, the box drawn for a character the font lacks, in
 * the font's own units instead of thousandths of an em: DejaVu's 2048-unit box would be drawn
 * twice as wide as it was measured, pushing a line with CJK or emoji past the margin. This puts
 * the width in the right units for the current font (a no-op once pdfkit does so itself).
 */
function fixMissingGlyphWidth(doc: PDFKit.PDFDocument): void {
  const font = (doc as unknown as EmbeddedFontState)._font;
  const glyph = font?.font?.getGlyph?.(0);
  if (font?.widths && typeof font.scale === 'number' && glyph) font.widths[0] = glyph.advanceWidth * font.scale;
}

/** The summary is printed whole: submit already bounds it (20,000 characters). */
const MAX_SUMMARY_CHARS = 20_000;
/** Longest answer or label the document prints; the rest is cut with a note (the full text stays in the request). */
export const MAX_VALUE_CHARS = 5_000;
/** Longest run without a break opportunity: pdfkit's wrapping of one long word takes time quadratic in its length. */
const MAX_UNBROKEN_RUN = 40;
const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Text as the document sets it: line ends made `\n`, a tab a few spaces (the font has no glyph
 * for it), and the other control characters (C0 and C1, DEL), which pdfkit would take as line
 * breaks or draw as boxes, left out. Runs of more than MAX_UNBROKEN_RUN characters without a
 * space get invisible break opportunities, and text past `maxChars` is cut with a note, so no
 * answer a visitor sends can make the render slow. Everything else is kept as typed.
 */
export function printable(value: string, maxChars = MAX_VALUE_CHARS): string {
  const clean = value
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
  const chars = Array.from(clean);
  const kept =
    chars.length > maxChars
      ? `${chars.slice(0, maxChars).join('')} … (shortened: ${chars.length - maxChars} more characters)`
      : clean;
  return kept.replace(
    new RegExp(`[^\\s${ZERO_WIDTH_SPACE}]{${MAX_UNBROKEN_RUN}}(?=[^\\s])`, 'gu'),
    (run) => run + ZERO_WIDTH_SPACE,
  );
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A readable form of any answer: lists joined, yes/no for booleans, nested objects as `key: value`. */
export function formatValue(value: unknown): string {
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

/** A price in the project's currency (`€40.00`; an unknown three-letter code prefixes the amount), or the plain number without a three-letter code. */
export function formatPrice(price: number, currency: unknown): string {
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

/** Renders the PDF and resolves with its bytes. */
export async function renderRequestPdf(input: RequestPdfInput): Promise<Buffer> {
  const brand = brandColorOf(input.brandColor);
  const projectName = printable(input.projectName);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `Request ${input.requestId} - ${projectName}`,
      Subject: `Configuration request ${input.requestId}`,
      Author: projectName,
      Creator: 'config-share',
      CreationDate: input.createdAt,
    },
  });
  const fonts = requestPdfFonts();
  for (const name of Object.keys(fonts) as FontName[]) {
    doc.registerFont(name, fonts[name]);
    // Loads the face (a face only goes into the PDF once text is set in it).
    doc.font(name);
    fixMissingGlyphWidth(doc);
  }
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const ensureSpace = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };

  // Header band in the brand colour.
  doc.rect(0, 0, doc.page.width, 96).fill(brand);
  doc
    .fillColor(textOn(brand))
    .font('bold')
    .fontSize(22)
    .text(projectName, MARGIN, 30, { width, height: 28, ellipsis: true, lineBreak: false });
  doc.font('body').fontSize(11).text('Configuration request', MARGIN, 62, { width });

  // Request id and date.
  doc.y = 116;
  const meta: Array<[string, string]> = [
    ['Request', input.requestId],
    ['Date', formatDate(input.createdAt)],
  ];
  for (const [label, value] of meta) {
    const y = doc.y;
    doc.fillColor(MUTED).font('body').fontSize(9).text(label.toUpperCase(), MARGIN, y, { width: 80 });
    doc
      .fillColor(TEXT)
      .font('bold')
      .fontSize(10)
      .text(value, MARGIN + 80, y, { width: width - 80 });
    doc.moveDown(0.3);
  }

  const section = (title: string) => {
    ensureSpace(60);
    doc.moveDown(1.2);
    const y = doc.y;
    doc.fillColor(brand).font('bold').fontSize(13).text(title, MARGIN, y, { width });
    doc
      .moveTo(MARGIN, doc.y + 3)
      .lineTo(MARGIN + width, doc.y + 3)
      .lineWidth(1)
      .strokeColor(brand)
      .stroke();
    doc.moveDown(0.8);
  };

  const rows = (entries: Array<[string, string]>, empty: string) => {
    if (entries.length === 0) {
      doc.fillColor(MUTED).font('italic').fontSize(10).text(empty, MARGIN, doc.y, { width });
      return;
    }
    for (const [rawLabel, rawValue] of entries) {
      const label = printable(rawLabel);
      const value = printable(rawValue);
      doc.font('body').fontSize(10);
      const height = Math.max(
        doc.heightOfString(value, { width: width - LABEL_WIDTH }),
        doc.heightOfString(label, { width: LABEL_WIDTH - 12 }),
      );
      // A row taller than a page flows over; shorter ones move whole to the next page.
      if (height < bottom() - MARGIN) ensureSpace(height + 6);
      const y = doc.y;
      doc
        .fillColor(MUTED)
        .font('bold')
        .fontSize(10)
        .text(label, MARGIN, y, { width: LABEL_WIDTH - 12 });
      const afterLabel = doc.y;
      doc
        .fillColor(TEXT)
        .font('body')
        .fontSize(10)
        .text(value, MARGIN + LABEL_WIDTH, y, { width: width - LABEL_WIDTH });
      doc.y = Math.max(doc.y, afterLabel) + 4;
      doc
        .moveTo(MARGIN, doc.y - 2)
        .lineTo(MARGIN + width, doc.y - 2)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      doc.y += 2;
    }
  };

  section('Customer details');
  rows(formRows(input.formFields, input.formData), 'No form data was sent.');

  section('Selected options');
  rows(optionRows(input.optionBlocks, input.selectedOptions, input.currency), 'No options were selected.');

  section('Configuration summary');
  const summary = input.configurationSummary.trim();
  doc
    .fillColor(summary ? TEXT : MUTED)
    .font(summary ? 'body' : 'italic')
    .fontSize(10)
    .text(summary ? printable(summary, MAX_SUMMARY_CHARS) : 'No summary was sent.', MARGIN, doc.y, { width });

  if (input.screenshots.length > 0) {
    section('Screenshots');
    /** A screenshot that is not in the document says why, where it would have been. */
    const missing = (caption: string, why: string) => {
      ensureSpace(20);
      doc.fillColor(MUTED).font('italic').fontSize(10).text(`${caption}: ${why}.`, MARGIN, doc.y, { width });
      doc.moveDown(0.5);
    };
    input.screenshots.forEach((shot, index) => {
      const caption = `Screenshot ${index + 1}`;
      if (shot.unreadable) return missing(caption, 'the image could not be read');
      if (!shot.data) return missing(caption, 'not available');
      // pdfkit cannot embed WebP (the PDF step hands it JPEGs).
      if (shot.mimeType !== 'image/png' && shot.mimeType !== 'image/jpeg') {
        return missing(caption, `${shot.mimeType.replace('image/', '').toUpperCase()} image, not embedded`);
      }
      // Never handed to the decoder: an unreadable header, or a size that would cost gigabytes.
      const size = imageDimensions(shot.data, shot.mimeType);
      if (!size) return missing(caption, 'the image could not be read');
      if (!isScreenshotSizeAllowed(size)) return missing(caption, 'not embedded (too large)');
      try {
        const image = (doc as unknown as OpenImage).openImage(shot.data);
        const maxHeight = Math.min(360, bottom() - MARGIN - 30);
        const scale = Math.min(width / image.width, maxHeight / image.height, 1);
        const w = image.width * scale;
        const h = image.height * scale;
        ensureSpace(h + 24);
        const y = doc.y;
        doc.image(image as unknown as Buffer, MARGIN + (width - w) / 2, y, { width: w, height: h });
        doc
          .rect(MARGIN + (width - w) / 2, y, w, h)
          .lineWidth(0.5)
          .strokeColor(RULE)
          .stroke();
        doc.y = y + h + 4;
        doc.fillColor(MUTED).font('body').fontSize(9).text(caption, MARGIN, doc.y, { width, align: 'center' });
        doc.moveDown(0.8);
      } catch {
        missing(caption, 'the image could not be read');
      }
    });
  }

  // Footer on every page: who, which request, where in the document.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const savedBottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .fillColor(MUTED)
      .font('body')
      .fontSize(8)
      .text(
        `${projectName} - request ${input.requestId} - ${formatDate(input.createdAt)} - page ${i - range.start + 1} of ${range.count}`,
        MARGIN,
        doc.page.height - 34,
        {
          width,
          align: 'center',
          lineBreak: false,
        },
      );
    doc.page.margins.bottom = savedBottom;
  }
  doc.end();
  return finished;
}
