import { describe, expect, it } from 'vitest';
import { formatMoney } from '#core/wire/configurator/index.js';

/** Minor units formatted (docs/scene-format.md, Prices); exact code points (Intl uses special spaces and signs). */
const EUR = { currency: 'EUR', decimals: 2 as const };

describe('formatMoney', () => {
  it('formats minor units in the currency and locale', () => {
    expect(formatMoney(123450, EUR, 'de-DE')).toBe('1.234,50\u00a0€');
    expect(formatMoney(123450, { currency: 'USD', decimals: 2 }, 'en-US')).toBe('$1,234.50');
    expect(formatMoney(-123450, { currency: 'SEK', decimals: 2 }, 'sv-SE')).toBe('\u22121\u00a0234,50\u00a0kr');
  });

  it("uses the module's decimals, not Intl's defaults", () => {
    expect(formatMoney(1235, { currency: 'JPY', decimals: 0 }, 'ja-JP')).toBe('￥1,235');
    expect(formatMoney(1234500, { currency: 'KWD', decimals: 3 }, 'en-KW')).toBe('KWD\u00a01,234.500');
    // Intl would give HUF no decimals; ISO 4217 gives it 2.
    expect(formatMoney(150, { currency: 'HUF', decimals: 2 }, 'en')).toBe('HUF\u00a01.50');
  });

  it('signs deltas except zero', () => {
    expect(formatMoney(4000, EUR, 'en', { delta: true })).toBe('+€40.00');
    expect(formatMoney(-4000, EUR, 'en', { delta: true })).toBe('-€40.00');
    expect(formatMoney(0, EUR, 'en', { delta: true })).toBe('€0.00');
  });

  it('formats plain numbers with the decimals when there is no currency', () => {
    expect(formatMoney(199, { currency: null, decimals: 2 }, 'en')).toBe('1.99');
    expect(formatMoney(2500, { currency: null, decimals: 2 }, 'en', { delta: true })).toBe('+25.00');
  });

  it('keeps every digit of amounts beyond 2^53 / 100 (no float conversion)', () => {
    expect(formatMoney(999_999_999_999_999, EUR, 'en')).toBe('€9,999,999,999,999.99');
  });

  it('falls back to en for a bad or missing locale, and never throws', () => {
    expect(formatMoney(4000, EUR, 'en_US')).toBe('€40.00');
    expect(formatMoney(4000, EUR, undefined)).toMatch(/40/);
    expect(formatMoney(4000, { currency: 'EURO', decimals: 2 }, 'en')).toBe('40.00');
    expect(formatMoney(Number.NaN, EUR, 'en')).toBe('€0.00');
  });
});
