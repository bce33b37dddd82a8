import { minorToDecimalString } from './decimal.js';
import type { PricingSettings } from './types.js';

const FALLBACK_LOCALE = 'en';

function formatter(locale: string | undefined, currency: string | null, decimals: number, delta: boolean) {
  return new Intl.NumberFormat(locale, {
    ...(currency ? { style: 'currency', currency } : { style: 'decimal' }),
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    ...(delta ? { signDisplay: 'exceptZero' } : {}),
  });
}

/**
 * Formats an amount in minor units (docs/scene-format.md, Prices): `Intl.NumberFormat(locale, currency style)`
 * with exactly `decimals` digits; `delta` adds the sign (`+€40.00`). Never throws.
 */
export function formatMoney(
  amount: number,
  pricing: Pick<PricingSettings, 'currency' | 'decimals'>,
  locale: string | undefined,
  options: { delta?: boolean } = {},
): string {
  const decimals = [0, 2, 3].includes(pricing?.decimals) ? pricing.decimals : 2;
  const currency = typeof pricing?.currency === 'string' && pricing.currency ? pricing.currency : null;
  const minor = BigInt(Number.isFinite(amount) ? Math.round(amount) : 0);
  // A decimal string, not amount / 10^decimals: Intl then formats the exact digits.
  const text = minorToDecimalString(minor, decimals) as `${number}`;
  const delta = options.delta === true;
  for (const attempt of [locale, FALLBACK_LOCALE]) {
    try {
      return formatter(attempt, currency, decimals, delta).format(text);
    } catch {
      // A malformed locale (`en_US`) or currency: try the fallback, then plain digits.
    }
  }
  return delta && minor > 0n ? `+${text}` : text;
}
