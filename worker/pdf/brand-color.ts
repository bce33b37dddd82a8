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

/** White or near-black (`dark`), whichever reads better on the brand colour. */
export function textOn(hex: string, dark: string): string {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? dark : '#ffffff';
}
