/** The header colour when the project sets none, or one pdfkit cannot take. */
export const DEFAULT_BRAND_COLOR = '#1f3a5f';

/** A colour pdfkit accepts, from what owners type into their settings. */
export function brandColorOf(value: unknown): string {
  if (typeof value !== 'string') return DEFAULT_BRAND_COLOR;
  const v = value.trim();
  if (/^#[0-9a-f]{6}$/i.test(v)) return v.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join('')}`.toLowerCase();
  return DEFAULT_BRAND_COLOR;
}

/** The brand colour for text on white when it reads as large text (WCAG 3:1), else `fallback`. */
export function textColorOnWhite(hex: string, fallback: string): string {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05) >= 3 ? hex : fallback;
}
