import PDFDocument from 'pdfkit';
import { imageDimensions, isScreenshotSizeAllowed } from '../../server/core/domain/image-dimensions.js';
import { brandColorOf, textOn } from './brand-color.js';
import { printable } from './printable.js';
import { fixMissingGlyphWidth, requestPdfFonts, type FontName } from './request-pdf-fonts.js';
import { formRows, formatDate, optionRows } from './request-rows.js';
import type { PriceRows } from './price-rows.js';

/**
 * The request PDF an owner forwards or files. Screenshots come as small JPEGs because pdfkit decodes an alpha
 * PNG at width × height × 4 bytes; DejaVu Sans covers the currency signs the standard PDF fonts lack.
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
  /** The request's stored price, formatted (price-rows.ts); no Price section without one. */
  price?: PriceRows | null;
  configurationSummary: string;
  /** PNG and JPEG are embedded; `unreadable` (bytes that could not be decoded) and other types are listed. */
  screenshots: Array<{ mimeType: string; data: Buffer | null; unreadable?: boolean }>;
}

/** pdfkit's openImage (missing from its type definitions): decodes the header once for sizing and embedding. */
interface OpenImage {
  openImage(src: Buffer): { width: number; height: number };
}

const TEXT = '#1d1d1f';
const MUTED = '#6b7280';
const RULE = '#d1d5db';
const MARGIN = 50;
const LABEL_WIDTH = 170;

/** The summary is printed whole: submit already bounds it (20,000 characters). */
const MAX_SUMMARY_CHARS = 20_000;

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
    .fillColor(textOn(brand, TEXT))
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

  const rows = (entries: Array<[string, string]>, empty: string, valueFont: FontName = 'body') => {
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
        .font(valueFont)
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

  if (input.price) {
    section('Price');
    if (input.price.lines.length > 0) rows(input.price.lines, '');
    rows([input.price.total], '', 'bold');
    if (input.price.taxNote)
      doc.fillColor(MUTED).font('body').fontSize(9).text(printable(input.price.taxNote), MARGIN, doc.y, { width });
  }

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
        `${projectName} - request ${input.requestId} - ${formatDate(input.createdAt)} - ` +
          `page ${i - range.start + 1} of ${range.count}`,
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
