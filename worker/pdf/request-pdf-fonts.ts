import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The three faces the document uses, by the names they are registered under in each document. */
const FONT_FILES = { body: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', italic: 'DejaVuSans-Oblique.ttf' } as const;
export type FontName = keyof typeof FONT_FILES;

let fontBytes: Record<FontName, Buffer> | undefined;

/**
 * The font files, read from the installed `dejavu-fonts-ttf` package on first use and kept by
 * the module. A render thread renders one PDF, so there this is one read; it saves the reads
 * where the module renders in place (the fallback without screenshots, tests).
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
 * pdfkit (0.20) writes the width of glyph 0, the box drawn for a character the font lacks, in
 * the font's own units instead of thousandths of an em: DejaVu's 2048-unit box would be drawn
 * twice as wide as it was measured, pushing a line with CJK or emoji past the margin. This puts
 * the width in the right units for the current font (a no-op once pdfkit does so itself).
 */
export function fixMissingGlyphWidth(doc: PDFKit.PDFDocument): void {
  const font = (doc as unknown as EmbeddedFontState)._font;
  const glyph = font?.font?.getGlyph?.(0);
  if (font?.widths && typeof font.scale === 'number' && glyph) font.widths[0] = glyph.advanceWidth * font.scale;
}
