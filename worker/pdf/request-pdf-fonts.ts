import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The three faces the document uses, by the names they are registered under in each document. */
const FONT_FILES = { body: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', italic: 'DejaVuSans-Oblique.ttf' } as const;
export type FontName = keyof typeof FONT_FILES;

let fontBytes: Record<FontName, Buffer> | undefined;

/**
 * The font files of `dejavu-fonts-ttf`, read on first use and kept, which saves the reads where PDFs render
 * in place rather than one per pool thread.
 */
export function requestPdfFonts(): Record<FontName, Buffer> {
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
 * pdfkit 0.20 writes glyph 0's width (the box for a missing character) in font units, not thousandths of an
 * em, which pushes lines with CJK or emoji past the margin; this rescales it (a no-op once pdfkit does).
 */
export function fixMissingGlyphWidth(doc: PDFKit.PDFDocument): void {
  const font = (doc as unknown as EmbeddedFontState)._font;
  const glyph = font?.font?.getGlyph?.(0);
  if (font?.widths && typeof font.scale === 'number' && glyph) font.widths[0] = glyph.advanceWidth * font.scale;
}
