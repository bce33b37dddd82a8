import { html, nothing } from 'lit';
import type { Price } from '#core/wire/configurator/index.js';
import { format, type ConfigShareStrings } from '../features/strings.js';

/** What the price display shows. */
export interface PriceView {
  strings: ConfigShareStrings;
  /** The total the live region holds: the current price, 500 ms after a visitor's change. */
  shown: Price;
  /** The current price, for the breakdown. */
  price: Price;
  money: (amount: number) => string;
}

/**
 * The total and its tax note (`part="price"`, a polite atomic live region that exists from the
 * first frame, so only later changes are announced) and the breakdown (`part="price-lines"`).
 */
export function priceDisplay({ strings, shown, price, money }: PriceView) {
  const note = shown.tax?.included
    ? format(strings.priceTaxIncluded, { label: shown.tax.label, amount: money(shown.tax.amount) })
    : '';
  const tax = note ? html` <span class="tax">${note}</span>` : nothing;
  return html`<div part="price" role="status" aria-live="polite" aria-atomic="true">
      <span class="total-label">${strings.priceTotal}</span> <strong class="total">${money(shown.total)}</strong>${tax}
    </div>
    <details part="price-lines">
      <summary>${strings.priceLines}</summary>
      <dl>
        ${price.lines.map((line) => html`<dt>${line.label}</dt><dd data-line=${line.id}>${money(line.amount)}</dd>`)}
      </dl>
    </details>`;
}
