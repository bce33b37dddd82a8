import { textColorOnWhite } from './brand-color.js';

/**
 * The request PDF's building blocks on a pdfkit document: headings kept with what follows them,
 * label/value rows, the options table, the totals block and the page footers. Every block measures
 * itself first, so a heading never stands alone at the foot of a page and a short row never splits.
 */

export const TEXT = '#1d1d1f';
export const MUTED = '#6b7280';
export const RULE = '#d1d5db';
export const MARGIN = 50;

/** pdfkit's openImage (missing from its type definitions): decodes the header once for sizing and embedding. */
export interface OpenImage {
  openImage(src: Buffer): { width: number; height: number };
}

const LABEL_WIDTH = 170;
const HEADING_SIZE = 13;
const SPACE_BEFORE_HEADING = 18;
const SPACE_AFTER_HEADING = 9;
/** Option table columns: the block's name, the choice, the price (right-aligned). */
const OPTION_WIDTH = 170;
const PRICE_WIDTH = 95;
const GAP = 12;
/** The totals block takes the right part of the page. */
const TOTALS_SHARE = 0.62;
const AMOUNT_WIDTH = 110;

export function createPdfLayout(doc: PDFKit.PDFDocument, brand: string) {
  const ink = textColorOnWhite(brand, TEXT);
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const spaceLeft = () => bottom() - doc.y;
  /** Starts a new page unless `height` fits below the current position. */
  const ensureSpace = (height: number) => {
    if (height > spaceLeft()) doc.addPage();
  };
  const rule = (y: number, lineWidth: number, color: string, from = MARGIN, to = MARGIN + width) =>
    doc.moveTo(from, y).lineTo(to, y).lineWidth(lineWidth).strokeColor(color).stroke();

  const valueWidth = width - LABEL_WIDTH;
  const choiceWidth = (withPrices: boolean) => width - OPTION_WIDTH - (withPrices ? PRICE_WIDTH + GAP : 0);
  const totalsX = MARGIN + width * (1 - TOTALS_SHARE);
  const totalsWidth = width * TOTALS_SHARE;
  const totalsLabelWidth = totalsWidth - AMOUNT_WIDTH - GAP;

  /** Height of a wrapped text in the given face and size. */
  const measure = (text: string, font: string, size: number, w: number) =>
    doc
      .font(font)
      .fontSize(size)
      .heightOfString(text || ' ', { width: w });

  const rowHeight = ([label, value]: [string, string]) =>
    Math.max(measure(value, 'body', 10, valueWidth), measure(label, 'bold', 10, LABEL_WIDTH - GAP)) + 6;
  const cellsHeight = (cells: string[], withPrices: boolean) =>
    Math.max(
      measure(cells[0], 'bold', 10, OPTION_WIDTH - GAP),
      measure(cells[1], 'body', 10, choiceWidth(withPrices)),
    ) + 8;
  const totalsLineHeight = ([label]: [string, string]) => measure(label, 'body', 10, totalsLabelWidth) + 6;
  const tableHeaderHeight = 18;

  /** Moves a block whole to the next page unless it is taller than a page (then it flows over). */
  const keepTogether = (height: number) => {
    if (height < bottom() - MARGIN) ensureSpace(height);
  };

  return {
    width,
    spaceLeft,
    ensureSpace,
    rule,
    rowHeight,
    cellsHeight,
    totalsLineHeight,
    tableHeaderHeight,

    /** A section title in the brand colour; it starts the next page unless `next` (what follows) fits after it. */
    heading(title: string, next: number) {
      const height = measure(title, 'bold', HEADING_SIZE, width) + SPACE_AFTER_HEADING;
      if (SPACE_BEFORE_HEADING + height + Math.min(next, bottom() - MARGIN - height) > spaceLeft()) doc.addPage();
      else doc.y += SPACE_BEFORE_HEADING;
      doc.fillColor(ink).font('bold').fontSize(HEADING_SIZE).text(title, MARGIN, doc.y, { width });
      rule(doc.y + 2, 1, brand);
      doc.y += SPACE_AFTER_HEADING;
    },

    /** A muted line in italics: what is missing and why. */
    note(text: string) {
      doc.fillColor(MUTED).font('italic').fontSize(10).text(text, MARGIN, doc.y, { width });
    },

    /** Label/value rows, each ruled below; the label in bold grey. */
    rows(entries: Array<[string, string]>) {
      for (const entry of entries) {
        const [label, value] = entry;
        keepTogether(rowHeight(entry));
        const y = doc.y;
        doc
          .fillColor(MUTED)
          .font('bold')
          .fontSize(10)
          .text(label, MARGIN, y, { width: LABEL_WIDTH - GAP });
        const afterLabel = doc.y;
        doc
          .fillColor(TEXT)
          .font('body')
          .fontSize(10)
          .text(value, MARGIN + LABEL_WIDTH, y, { width: valueWidth });
        doc.y = Math.max(doc.y, afterLabel) + 4;
        rule(doc.y - 2, 0.5, RULE);
        doc.y += 2;
      }
    },

    /** The options table: column titles, then a row per option; the price column only `withPrices`. */
    table(titles: [string, string, string], rows: string[][], withPrices: boolean) {
      const columns = [
        { x: MARGIN, width: OPTION_WIDTH - GAP, align: 'left' as const },
        { x: MARGIN + OPTION_WIDTH, width: choiceWidth(withPrices), align: 'left' as const },
        { x: MARGIN + width - PRICE_WIDTH, width: PRICE_WIDTH, align: 'right' as const },
      ].slice(0, withPrices ? 3 : 2);
      const header = doc.y;
      columns.forEach((column, i) =>
        doc
          .fillColor(MUTED)
          .font('body')
          .fontSize(8)
          .text(titles[i].toUpperCase(), column.x, header, { width: column.width, align: column.align }),
      );
      doc.y = header + tableHeaderHeight - 6;
      rule(doc.y, 0.75, TEXT);
      doc.y += 6;
      for (const cells of rows) {
        keepTogether(cellsHeight(cells, withPrices));
        const y = doc.y;
        let lowest = y;
        columns.forEach((column, i) => {
          doc
            .fillColor(i === 0 ? MUTED : TEXT)
            .font(i === 0 ? 'bold' : 'body')
            .fontSize(10)
            .text(cells[i], column.x, y, { width: column.width, align: column.align });
          lowest = Math.max(lowest, doc.y);
        });
        doc.y = lowest + 4;
        rule(doc.y - 1, 0.5, RULE);
        doc.y += 4;
      }
    },

    /** The price lines, the total in bold under a rule, and the included-tax note, on the right of the page. */
    totals(lines: Array<[string, string]>, total: [string, string], taxNote: string | null) {
      const line = ([label, amount]: [string, string], font: 'body' | 'bold', size: number) => {
        const y = doc.y;
        doc.fillColor(TEXT).font(font).fontSize(size).text(label, totalsX, y, { width: totalsLabelWidth });
        const afterLabel = doc.y;
        doc.text(amount, totalsX + totalsWidth - AMOUNT_WIDTH, y, { width: AMOUNT_WIDTH, align: 'right' });
        doc.y = Math.max(doc.y, afterLabel) + 4;
      };
      for (const entry of lines) {
        keepTogether(totalsLineHeight(entry));
        line(entry, 'body', 10);
      }
      // The total never starts a page alone: its rule, its line and the tax note stay together.
      keepTogether(measure(total[0], 'bold', 12, totalsLabelWidth) + (taxNote ? 24 : 10));
      rule(doc.y, 1, TEXT, totalsX, totalsX + totalsWidth);
      doc.y += 5;
      line(total, 'bold', 12);
      if (taxNote)
        doc.fillColor(MUTED).font('body').fontSize(9).text(taxNote, totalsX, doc.y, {
          width: totalsWidth,
          align: 'right',
        });
    },

    /** `text · Page n of m` at the foot of every page. */
    footers(text: string) {
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        const savedBottom = doc.page.margins.bottom;
        doc.page.margins.bottom = 0;
        doc
          .fillColor(MUTED)
          .font('body')
          .fontSize(8)
          .text(`${text} · Page ${i - range.start + 1} of ${range.count}`, MARGIN, doc.page.height - 34, {
            width,
            align: 'center',
            lineBreak: false,
          });
        doc.page.margins.bottom = savedBottom;
      }
    },
  };
}
