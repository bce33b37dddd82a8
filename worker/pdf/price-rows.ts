import { formatMoney } from '#core/wire/configurator/index.js';
import { currencyDecimals } from '#core/wire/configurator/currency-decimals.js';
import type { ClientPrice, StoredPrice } from '#core/domain/request-price.js';

/**
 * The request's stored price as text rows for the PDF and the e-mails: never recomputed, only
 * formatted with `formatMoney` (docs/scene-format.md#prices), in `pricing.locale`, else `en`.
 */
export interface PriceRows {
  /** Label and formatted amount of each line, tax lines included. */
  lines: Array<[string, string]>;
  total: [string, string];
  /** Tax included in the total, e.g. `Includes VAT (19%): €60.35`; null otherwise. */
  taxNote: string | null;
}

/** `19%`, `7.5%`; in `en` when the locale is not one Intl knows. */
function percent(rate: number, locale: string): string {
  const options = { style: 'percent', maximumFractionDigits: 3 } as const;
  try {
    return new Intl.NumberFormat(locale, options).format(rate);
  } catch {
    return new Intl.NumberFormat('en', options).format(rate);
  }
}

function lineLabel(line: StoredPrice['lines'][number]): string {
  return line.sku ? `${line.label} (SKU ${line.sku})` : line.label;
}

export function priceRows(price: StoredPrice, locale: string): PriceRows {
  const money = (amount: number) => formatMoney(amount, price, locale);
  const { tax } = price;
  return {
    lines: price.lines.map((line) => [lineLabel(line), money(line.amount)]),
    total: ['Total', money(price.total)],
    taxNote: tax?.included ? `Includes ${tax.label} (${percent(tax.rate, locale)}): ${money(tax.amount)}` : null,
  };
}

/** Minor unit digits of the currency the page named (its ISO 4217 table's; 2 without one). */
const decimalsOf = (currency: string | null) => (currency ? currencyDecimals(currency) : null) ?? 2;

/** The page's figure, formatted like the server's: `€300.00`. */
export function formatClientPrice(clientPrice: ClientPrice, locale: string): string {
  const { currency } = clientPrice;
  return formatMoney(clientPrice.total, { currency, decimals: decimalsOf(currency) }, locale);
}
