import { formatMoney } from '#core/wire/configurator/index.js';
import { currencyDecimals } from '#core/wire/configurator/currency-decimals.js';
import { escapeHtml as e } from './share-page.js';
import { FAVICON_DATA_URL } from './favicon.js';

/**
 * The demo shop's cart page (demo/shop/): what a merchant's own cart shows of a configured product, every price
 * from a verified cart token, the picture and summary from the stored configuration.
 */

/** One verified line of the cart. */
export interface ShopLine {
  /** The configuration id (the token's `sub`). */
  id: string;
  sku: string | null;
  quantity: number;
  /** Minor units, as signed; null without pricing. */
  unit: number | null;
  total: number | null;
  currency: string | null;
  /** The price's decimals (the stored configuration's), else the currency's ISO 4217 ones. */
  decimals: 0 | 2 | 3 | null;
  /** `"Seat: Walnut; Legs: Brass"`, from the stored configuration; null when it could not be read. */
  summary: string | null;
  imageUrl: string | null;
  /** The product page with this configuration (`#cs=`), on the shop's own origin. */
  editUrl: string | null;
}

export interface ShopPageInput {
  lines: ShopLine[];
  /** The line just added (highlighted and announced). */
  added?: string;
  /** Things the shopper should know (a line that expired and was removed). */
  notices: string[];
  /** Why the last add was refused. */
  error?: string;
}

/** The shop's name for a line: its catalogue knows the demo stool by its SKU base. */
const productName = (sku: string | null) => (sku?.startsWith('STOOL') ? 'The Demo Stool' : 'Configured product');

/** Minor units as the shopper reads them (docs/scene-format.md, Prices: formatted as the element shows them). */
function money(amount: number | null, line: Pick<ShopLine, 'currency' | 'decimals'>): string {
  if (amount === null) return 'Price on request';
  const decimals = line.decimals ?? (line.currency ? currencyDecimals(line.currency) : null) ?? 2;
  return formatMoney(amount, { currency: line.currency, decimals }, 'en-IE');
}

function lineHtml(line: ShopLine, added: boolean): string {
  const name = productName(line.sku);
  const picture = line.imageUrl
    ? `<img src="${e(line.imageUrl)}" alt="${e(name)} as configured" width="160" height="120" loading="lazy">`
    : `<span class="no-picture" aria-hidden="true">No picture</span>`;
  const choices = (line.summary ?? '')
    .split('; ')
    .filter(Boolean)
    .map((part) => `<li>${e(part)}</li>`)
    .join('');
  return `<li class="line${added ? ' added' : ''}" id="line-${e(line.id)}">
  <div class="picture">${picture}</div>
  <div class="details">
    <h2>${e(name)}</h2>
    ${choices ? `<ul class="choices">${choices}</ul>` : '<p class="muted">Configuration details unavailable.</p>'}
    <dl class="facts">
      <div><dt>SKU</dt><dd class="sku">${e(line.sku ?? '—')}</dd></div>
      <div><dt>Quantity</dt><dd class="quantity">${line.quantity}</dd></div>
      <div><dt>Unit price</dt><dd class="unit">${e(money(line.unit, line))}</dd></div>
    </dl>
    <div class="actions">
      ${line.editUrl ? `<a href="${e(line.editUrl)}">Change configuration</a>` : ''}
      <form method="post" action="/demo/shop/cart/remove">
        <input type="hidden" name="line" value="${e(line.id)}">
        <button type="submit" class="link">Remove<span class="visually-hidden"> ${e(name)}</span></button>
      </form>
    </div>
  </div>
  <p class="line-total">${e(money(line.total, line))}</p>
</li>`;
}

/** Totals per currency (a cart could hold lines of projects priced in different currencies). */
function totals(lines: ShopLine[]): string {
  const byCurrency = new Map<string, { amount: number; line: ShopLine }>();
  for (const line of lines) {
    if (line.total === null) continue;
    const key = line.currency ?? '';
    const sum = byCurrency.get(key);
    byCurrency.set(key, { amount: (sum?.amount ?? 0) + line.total, line: sum?.line ?? line });
  }
  if (byCurrency.size === 0) return '<p>Prices on request.</p>';
  return [...byCurrency.values()]
    .map(({ amount, line }) => `<p class="total"><span>Total</span> <strong>${e(money(amount, line))}</strong></p>`)
    .join('');
}

function cartHtml(input: ShopPageInput): string {
  const { lines } = input;
  if (lines.length === 0)
    return `<section class="empty" aria-labelledby="empty-title">
  <h2 id="empty-title">Your cart is empty</h2>
  <p>Configure a stool in 3D, then add it to your cart.</p>
  <p><a class="button" href="/demo/#product">Configure a stool</a></p>
</section>`;
  const items = lines.reduce((sum, line) => sum + line.quantity, 0);
  return `<div class="cart">
  <ul class="lines" aria-label="Cart lines">
    ${lines.map((line) => lineHtml(line, line.id === input.added)).join('\n')}
  </ul>
  <aside class="summary" aria-labelledby="summary-title">
    <h2 id="summary-title">Order summary</h2>
    <p class="items">${items} item${items === 1 ? '' : 's'}</p>
    ${totals(lines)}
    <p class="verified">Prices are signed by the configurator's server and checked by this shop.</p>
    <button type="button" class="checkout" aria-describedby="checkout-note" disabled>Checkout</button>
    <p id="checkout-note" class="muted">This demo shop ends here: no order is placed.</p>
    <p><a href="/demo/#product">Continue shopping</a></p>
  </aside>
</div>`;
}

/** The whole cart page; every value is escaped (ids, SKUs and summaries come from the configurator's server). */
export function renderShopCartPage(input: ShopPageInput): string {
  const count = input.lines.reduce((sum, line) => sum + line.quantity, 0);
  const added = input.lines.find((line) => line.id === input.added);
  const messages = [
    input.error ? `<p class="message error" role="alert">${e(input.error)}</p>` : '',
    added ? `<p class="message ok" role="status">Added to your cart: ${e(productName(added.sku))}.</p>` : '',
    ...input.notices.map((notice) => `<p class="message" role="status">${e(notice)}</p>`),
  ].join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your cart · Nordic Stools</title>
<link rel="icon" href="${FAVICON_DATA_URL}">
<link rel="stylesheet" href="/demo/demo.css">
<link rel="stylesheet" href="/demo/shop/shop.css">
</head>
<body class="shop">
<header class="shop-header">
  <a class="brand" href="/demo/">Nordic Stools</a>
  <nav aria-label="Shop"><a href="/demo/#product">Stools</a> <a href="/demo/shop/cart" aria-current="page"
    >Cart <span class="count">${count}</span><span class="visually-hidden"> items</span></a></nav>
</header>
<main class="shop-main">
  <h1>Your cart</h1>
  ${messages}
  ${cartHtml(input)}
</main>
</body>
</html>
`;
}
