/** Longest answer or label the document prints; the rest is cut with a note (the full text stays in the request). */
export const MAX_VALUE_CHARS = 5_000;
/** Longest run without a break opportunity: pdfkit's wrapping of one long word takes time quadratic in its length. */
const MAX_UNBROKEN_RUN = 40;
const ZERO_WIDTH_SPACE = '\u200b';
// eslint-disable-next-line no-control-regex -- the control characters (C0 but tab and newline, DEL, C1) are the target
const UNPRINTABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Text as the PDF sets it: control characters out (pdfkit would break lines or draw boxes), tabs as spaces (no
 * glyph), long runs breakable and length capped, so no visitor's answer can make the render slow.
 */
export function printable(value: string, maxChars = MAX_VALUE_CHARS): string {
  const clean = value.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').replace(UNPRINTABLE, '');
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
