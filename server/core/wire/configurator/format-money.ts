import type { PricingSettings } from './types.js';

/**
 * Formats an amount in minor units per 12.5: `Intl.NumberFormat(locale, currency style)` with
 * exactly `decimals` digits; `delta` adds the sign (`+€40.00`). Never throws.
 */
export function formatMoney(
  amount: number,
  pricing: Pick<PricingSettings, 'currency' | 'decimals'>,
  locale: string | undefined,
  options: { delta?: boolean } = {},
): string {
  void amount;
  void pricing;
  void locale;
  void options;
  throw new Error('formatMoney: not implemented yet');
}
