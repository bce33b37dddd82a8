import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { importPriceList, priceListCsv, type PriceListProblem } from './price-list-csv.js';
import { PanelElement } from './panel-element.js';

/** Price lists: the choices' labels, prices and SKUs out to a spreadsheet and back in, one undo step. */
@customElement('editor-price-list')
export class PriceList extends PanelElement {
  @state() private href = '';
  @state() private result: { file: string; changed: number; problems: PriceListProblem[] } | null = null;

  override willUpdate(changed: Map<PropertyKey, unknown>) {
    if (changed.has('data') && this.data) {
      if (this.href) URL.revokeObjectURL(this.href);
      // A BOM so spreadsheet programs read the UTF-8 as UTF-8.
      this.href = URL.createObjectURL(
        new Blob(['\uFEFF', priceListCsv(this.data)], { type: 'text/csv;charset=utf-8' }),
      );
    }
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    if (this.href) URL.revokeObjectURL(this.href);
    this.href = '';
  }

  private async import(event: Event) {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const outcome = importPriceList(this.data, await file.text());
    this.result = { file: file.name, changed: outcome.changed, problems: outcome.problems };
    if (outcome.changed > 0) {
      this.commitData(outcome.data, `Import price list (${outcome.changed} choice${outcome.changed === 1 ? '' : 's'})`);
    }
  }

  override render() {
    const result = this.result;
    return html`<section class="card" aria-label="Price list">
      <h3>Price list</h3>
      <p class="help">
        Edit labels, prices and SKUs in a spreadsheet: download the list, change it, and import it back. Rows are
        matched by block and choice id; other columns are ignored.
      </p>
      <div class="row">
        <a class="button" href=${this.href} download="price-list.csv">Download price list (CSV)</a>
        <label>Import a price list <input type="file" accept=".csv,text/csv" @change=${this.import} /></label>
      </div>
      ${
        result
          ? html`<div role="status">
            <p class=${result.problems.length ? 'bad' : 'ok'}>
              ${result.file}: ${result.changed} choice${result.changed === 1 ? '' : 's'} changed${
                result.problems.length
                  ? `, ${result.problems.length} row${result.problems.length === 1 ? '' : 's'} not applied`
                  : ''
              }.
            </p>
            ${
              result.problems.length
                ? html`<ul aria-label="Rows not applied">
                  ${result.problems.map((p) => html`<li>Row ${p.row}: ${p.message}</li>`)}
                </ul>`
                : nothing
            }
          </div>`
          : nothing
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-price-list': PriceList;
  }
}
