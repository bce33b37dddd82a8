import PDFDocument from 'pdfkit';
import { imageDimensions, isScreenshotSizeAllowed } from '#core/domain/image-dimensions.js';
import { brandColorOf, textColorOnWhite } from './brand-color.js';
import { printable } from './printable.js';
import { fixMissingGlyphWidth, requestPdfFonts, type FontName } from './request-pdf-fonts.js';
import type { RequestRows } from './request-rows.js';
import { createPdfLayout, MARGIN, MUTED, RULE, TEXT, type OpenImage } from './pdf-layout.js';

/**
 * The request as a quote the merchant can forward as it is: their name and logo, the request's
 * reference and date, the customer's answers, the options with their prices, the totals and the
 * screenshots fitted to the page. Screenshots come as small JPEGs because pdfkit decodes an alpha
 * PNG at width × height × 4 bytes; DejaVu Sans covers the currency signs the standard PDF fonts lack.
 */
export interface RequestPdfInput {
  /** What the document prints (request-rows.ts). */
  rows: RequestRows;
  /** `#rgb` or `#rrggbb`; anything else falls back to the default. */
  brandColor?: unknown;
  /** The merchant's logo as PNG or JPEG (logo-for-pdf.ts); none without. */
  logo?: Buffer | null;
  /** PNG and JPEG are embedded; `unreadable` (bytes that could not be decoded) and other types are listed. */
  screenshots: Array<{ mimeType: string; data: Buffer | null; unreadable?: boolean }>;
}

/** The summary is printed whole: submit already bounds it (20,000 characters). */
const MAX_SUMMARY_CHARS = 20_000;
/** The logo's box in the header, in points. */
const LOGO_BOX = { width: 180, height: 56 };
/** The reference and date column of the header. */
const META_WIDTH = 220;
/** A screenshot is shrunk to the space left on a page down to this height; below it, it starts the next page. */
const MIN_SHOT_HEIGHT = 170;
const MAX_SHOT_HEIGHT = 380;
/** Characters of the company name the footer line has room for. */
const MAX_FOOTER_NAME = 50;

/** Renders the PDF and resolves with its bytes. */
export async function renderRequestPdf(input: RequestPdfInput): Promise<Buffer> {
  const { rows } = input;
  const brand = brandColorOf(input.brandColor);
  const company = printable(rows.companyName, 200);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `Quote request ${rows.requestId} - ${company}`,
      Subject: `Configuration request ${rows.requestId} for ${printable(rows.projectName, 200)}`,
      Author: company,
      Creator: 'config-share',
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
  const layout = createPdfLayout(doc, brand);
  const { width } = layout;
  const image = (data: Buffer) => (doc as unknown as OpenImage).openImage(data);

  // Header: the merchant on the left (logo, name), the document on the right (what, reference, date).
  doc.rect(0, 0, doc.page.width, 6).fill(brand);
  const top = 40;
  const leftWidth = width - META_WIDTH - 20;
  let leftBottom = top;
  if (input.logo) {
    try {
      const logo = image(input.logo);
      const scale = Math.min(LOGO_BOX.width / logo.width, LOGO_BOX.height / logo.height);
      doc.image(logo as unknown as Buffer, MARGIN, top, { width: logo.width * scale, height: logo.height * scale });
      leftBottom = top + logo.height * scale + 8;
    } catch {
      // A logo pdfkit cannot read is left out, like one that did not load.
    }
  }
  doc.fillColor(TEXT).font('bold').fontSize(16).text(company, MARGIN, leftBottom, { width: leftWidth });
  leftBottom = doc.y;
  const metaX = MARGIN + width - META_WIDTH;
  doc
    .fillColor(textColorOnWhite(brand, TEXT))
    .font('bold')
    .fontSize(18)
    .text('Quote request', metaX, top, { width: META_WIDTH, align: 'right' });
  doc.moveDown(0.3);
  for (const [label, value] of [
    ['Reference', rows.requestId],
    ['Date', printable(rows.date, 200)],
  ]) {
    doc.fillColor(MUTED).font('body').fontSize(8).text(label.toUpperCase(), metaX, doc.y, {
      width: META_WIDTH,
      align: 'right',
    });
    doc.fillColor(TEXT).font('body').fontSize(9.5).text(value, metaX, doc.y, { width: META_WIDTH, align: 'right' });
    doc.moveDown(0.25);
  }
  doc.y = Math.max(doc.y, leftBottom) + 10;
  layout.rule(doc.y, 1, brand);
  doc.y += 4;

  // The customer's answers.
  const customer = rows.customer.map(([label, value]) => [printable(label), printable(value)] as [string, string]);
  layout.heading('Customer', customer.length ? layout.rowHeight(customer[0]) : 14);
  if (customer.length) layout.rows(customer);
  else layout.note('No form data was sent.');

  // The configured product: its options (or, without options, the summary the page sent).
  const title = `Configuration: ${printable(rows.projectName, 200)}`;
  if (rows.options.length > 0) {
    const withPrices = rows.options.some((row) => row.price !== null);
    const cells = rows.options.map((row) => [printable(row.block), printable(row.choice), row.price ?? '']);
    layout.heading(title, layout.tableHeaderHeight + layout.cellsHeight(cells[0], withPrices));
    layout.table(['Option', 'Choice', 'Price'], cells, withPrices);
  } else if (rows.summary) {
    const summary = printable(rows.summary, MAX_SUMMARY_CHARS);
    layout.heading(title, Math.min(doc.heightOfString(summary.split('\n')[0], { width }), 40));
    doc.fillColor(TEXT).font('body').fontSize(10).text(summary, MARGIN, doc.y, { width });
  } else {
    layout.heading(title, 14);
    layout.note('No options were selected.');
  }

  // The totals: every price line, the total, the tax the total includes.
  if (rows.price) {
    const lines = rows.price.lines.map(([label, amount]) => [printable(label), amount] as [string, string]);
    layout.heading('Price', lines.length ? layout.totalsLineHeight(lines[0]) : 20);
    layout.totals(lines, rows.price.total, rows.price.taxNote);
  }

  if (input.screenshots.length > 0) {
    const many = input.screenshots.length > 1;
    let first = true;
    /** Before the first screenshot, its heading (kept with it: `space` is what must fit after the heading). */
    const headed = (space: number) => {
      if (first) layout.heading('Preview', space);
      else layout.ensureSpace(space);
      first = false;
    };
    /** A screenshot that is not in the document says why, where it would have been. */
    const missing = (caption: string, why: string) => {
      headed(20);
      layout.note(`${caption}: ${why}.`);
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
      let picture: { width: number; height: number };
      try {
        picture = image(shot.data);
      } catch {
        return missing(caption, 'the image could not be read');
      }
      const captionHeight = many ? 18 : 6;
      // A pixel is at most a point: a small screenshot is not enlarged.
      const full = Math.min(width / picture.width, MAX_SHOT_HEIGHT / picture.height, 1) * picture.height;
      // As large as it may be, shrunk to what is left of this page when that is not too small.
      headed(Math.min(full, MIN_SHOT_HEIGHT) + captionHeight);
      const h = Math.min(full, layout.spaceLeft() - captionHeight);
      const w = (picture.width * h) / picture.height;
      const x = MARGIN + (width - w) / 2;
      const y = doc.y;
      doc.image(picture as unknown as Buffer, x, y, { width: w, height: h });
      doc.rect(x, y, w, h).lineWidth(0.5).strokeColor(RULE).stroke();
      doc.y = y + h + 4;
      if (many) doc.fillColor(MUTED).font('body').fontSize(9).text(caption, MARGIN, doc.y, { width, align: 'center' });
      doc.moveDown(0.6);
    });
  }

  // One line at the foot: a long company name is shortened there (the header has it whole).
  const chars = Array.from(company);
  const short = chars.length > MAX_FOOTER_NAME ? `${chars.slice(0, MAX_FOOTER_NAME - 1).join('')}…` : company;
  layout.footers(`${short} · Quote request ${rows.requestId}`);
  doc.end();
  return finished;
}
