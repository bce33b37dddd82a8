import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '#core/wire/configurator/index.js';
import type { Api, CartConfiguration } from './api.js';
import { announce, errorText, panelStyles } from './styles.js';

/** Rows per page: a screenful with pictures. */
const PAGE_SIZE = 20;

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

function money(amount: number | null, configuration: CartConfiguration): string {
  if (amount === null || !configuration.price) return 'no price';
  return formatMoney(amount, configuration.price, undefined);
}

/**
 * The Configurations panel: what shoppers put in a cart (docs/cart.md), newest first, with the picture, SKU and
 * signed price of each, a page at a time (the API's cursor).
 */
@customElement('configurations-panel')
export class ConfigurationsPanel extends LitElement {
  static override styles = [
    panelStyles,
    css`
      .table { overflow-x: auto; }
      .configurations td { vertical-align: middle; }
      .configurations img, .no-picture {
        display: block; width: 5rem; height: 3.75rem; object-fit: contain; background: #f4f4f6; border-radius: 4px;
      }
      .no-picture { display: grid; place-items: center; font-size: 0.75rem; color: #666; }
      .sku { display: block; font-family: ui-monospace, monospace; font-weight: 600; white-space: nowrap; }
      .summary { display: block; color: #444; }
      .price, .quantity { text-align: right; }
      .price strong, .price span { display: block; white-space: nowrap; }
      .dates { font-size: 0.85rem; }
      .dates span { display: block; }
      .paging { display: flex; gap: 0.5rem; align-items: center; margin-top: 0.6rem; }
    `,
  ];

  @property({ attribute: false }) api!: Api;
  @property() projectId = '';
  @state() private rows: CartConfiguration[] = [];
  @state() private loaded = false;
  @state() private loading = false;
  /** The cursors of the pages before this one (the first page has none). */
  @state() private earlier: Array<string | undefined> = [];
  @state() private cursor?: string;
  @state() private nextCursor: string | null = null;

  override updated(changed: PropertyValues<this>) {
    if (changed.has('projectId') || changed.has('api')) {
      this.earlier = [];
      void this.load(undefined);
    }
  }

  private async load(cursor: string | undefined) {
    const asked = this.projectId;
    this.loading = true;
    try {
      const page = await this.api.configurations(asked, { limit: PAGE_SIZE, cursor });
      if (asked !== this.projectId) return;
      this.rows = page.configurations;
      this.cursor = cursor;
      this.nextCursor = page.nextCursor;
      this.loaded = true;
      announce(this, `${page.configurations.length} configuration(s) shown.`);
    } catch (error) {
      announce(this, `Could not list the configurations: ${errorText(error)}`, 'error');
    } finally {
      this.loading = false;
    }
  }

  private older() {
    if (!this.nextCursor) return;
    this.earlier = [...this.earlier, this.cursor];
    void this.load(this.nextCursor);
  }

  private newer() {
    const previous = this.earlier.at(-1);
    this.earlier = this.earlier.slice(0, -1);
    void this.load(previous);
  }

  private row(c: CartConfiguration) {
    return html`<tr data-configuration=${c.id}>
      <td>${
        c.imageUrl
          ? html`<a href=${c.imageUrl} target="_blank" rel="noopener"
              ><img src=${c.imageUrl} alt=${`Picture of ${c.summary || c.id}`} loading="lazy"
            /></a>`
          : html`<span class="no-picture">No picture</span>`
      }</td>
      <td>
        <span class="sku">${c.sku ?? html`<span class="muted">no SKU</span>`}</span>
        <span class="summary">${c.summary.split('; ').filter(Boolean).join(' · ')}</span>
      </td>
      <td class="quantity">${c.quantity}</td>
      <td class="price">
        <strong>${money(c.total, c)}</strong>
        ${
          c.price && c.quantity > 1
            ? html`<span class="muted">${c.quantity} × ${money(c.price.total, c)}</span>`
            : nothing
        }
      </td>
      <td class="dates">
        <time datetime=${c.createdAt}>${when(c.createdAt)}</time>
        <span class="muted">expires <time datetime=${c.expiresAt}>${day(c.expiresAt)}</time></span>
      </td>
    </tr>`;
  }

  override render() {
    const page = this.earlier.length + 1;
    return html`
      <h3>Configurations</h3>
      <p class="muted">
        What shoppers put in a cart with the “Add to cart” button (Look → Add to cart), newest first, at the price the
        server signed. A configuration added again is one row; each is kept a year after it was last added.
      </p>
      <button @click=${() => void this.load(this.cursor)} ?disabled=${this.loading}>Refresh</button>
      ${
        this.loaded && this.rows.length === 0 && page === 1
          ? html`<p class="muted">No configurations yet: they appear when shoppers add this product to a cart.</p>`
          : nothing
      }
      ${
        this.rows.length
          ? html`<div class="table"><table class="configurations">
              <caption style="text-align:left">Newest first, page ${page}</caption>
              <thead>
                <tr>
                  <th scope="col">Picture</th>
                  <th scope="col">SKU and summary</th>
                  <th scope="col" class="quantity"><abbr title="Quantity">Qty</abbr></th>
                  <th scope="col" class="price">Price</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>${this.rows.map((c) => this.row(c))}</tbody>
            </table></div>`
          : nothing
      }
      ${
        page > 1 || this.nextCursor
          ? html`<nav class="paging" aria-label="Pages of configurations">
              <button @click=${this.newer} ?disabled=${page === 1 || this.loading}>Newer</button>
              <span>Page ${page}</span>
              <button @click=${this.older} ?disabled=${!this.nextCursor || this.loading}>Older</button>
            </nav>`
          : nothing
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'configurations-panel': ConfigurationsPanel;
  }
}
