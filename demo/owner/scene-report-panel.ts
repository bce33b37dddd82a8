import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney, type Price, type WarningCode } from '#core/wire/configurator/index.js';
import type { Api, ProjectLabels, SceneReport } from './api.js';
import { optionRows } from './request-rows.js';
import { announce, errorText, panelStyles } from './styles.js';

/** Each parser warning in an owner's words (docs/scene-format.md, Warnings); its code stays beside it for support. */
const WARNING_WORDS: Record<WarningCode, string> = {
  invalid_type: 'Wrong kind of value',
  missing_field: 'Required field missing',
  invalid_value: 'Value not allowed or out of range',
  duplicate_id: 'Id used twice (the later entry is ignored)',
  unknown_reference: 'Names something the project does not have',
  unsupported: 'Not supported',
  limit_exceeded: 'Over the limit (the extra entries are ignored)',
  deleted_part: 'Names a deleted part',
  too_many_warnings: 'Too many problems (the rest are not listed)',
  unknown_name: 'Names something the model does not have',
  not_checked: 'Names not checked (no model outline to check against)',
};

const COUNTS: Array<[keyof SceneReport['counts'], string]> = [
  ['models', 'Models'],
  ['optionBlocks', 'Option blocks'],
  ['choices', 'Choices'],
  ['effects', 'Effects'],
  ['rules', 'Option rules'],
  ['animationBlocks', 'Animations'],
  ['pricingBlocks', 'Pricing lines'],
  ['formulaSteps', 'Price formula steps'],
  ['formFields', 'Form fields'],
];

/** An amount in minor units the way the element shows it (the shared formatter; docs/scene-format.md, Prices). */
function money(amount: number, price: Price): string {
  try {
    return formatMoney(amount, price, undefined);
  } catch {
    // Never a blank cell: the plain number with its currency code.
    return `${(amount / 10 ** price.decimals).toFixed(price.decimals)} ${price.currency ?? ''}`.trim();
  }
}

/**
 * The scene report panel (docs/api.md, Projects and assets): what the parser made of the current revision, what it
 * dropped or corrected and why, and the default options a visitor sees first with their price.
 */
@customElement('scene-report-panel')
export class SceneReportPanel extends LitElement {
  static override styles = [
    panelStyles,
    css`
      .counts { max-width: 24rem; }
      .counts td, .price td { text-align: right; }
      .price { max-width: 32rem; }
      .warnings td:first-child { font-family: ui-monospace, monospace; font-size: 0.85rem; word-break: break-all; }
    `,
  ];

  @property({ attribute: false }) api!: Api;
  @property() projectId = '';
  @state() private report?: SceneReport;
  @state() private labels: ProjectLabels = {};
  @state() private loading = false;

  override updated(changed: PropertyValues<this>) {
    if (changed.has('projectId') || changed.has('api')) void this.load();
  }

  private async load() {
    this.loading = true;
    // Labels are a nicety: without them the default options show their ids.
    void this.api.projectLabels(this.projectId).then(
      (labels) => (this.labels = labels),
      () => (this.labels = {}),
    );
    try {
      this.report = await this.api.sceneReport(this.projectId);
      const problems = this.report.warnings.length;
      announce(this, `Scene report loaded: ${problems === 0 ? 'no problems found' : `${problems} problem(s) found`}.`);
    } catch (error) {
      this.report = undefined;
      announce(this, `Could not read the scene report: ${errorText(error)}`, 'error');
    } finally {
      this.loading = false;
    }
  }

  override render() {
    return html`
      <h3>Scene report</h3>
      <p class="muted">
        How the configurator reads this project's current revision. Entries it cannot use are left out and listed
        here; the rest still works.
      </p>
      <button @click=${this.load} ?disabled=${this.loading}>Refresh</button>
      ${this.loading && !this.report ? html`<p class="muted">Loading…</p>` : nothing}
      ${this.report ? this.renderReport(this.report) : nothing}
    `;
  }

  private renderReport(report: SceneReport) {
    const defaults = optionRows(report.defaultOptions, this.labels);
    return html`
      <p>Revision ${report.revision}.</p>
      <h4 id="counts-title">What the project uses</h4>
      <table class="counts" aria-labelledby="counts-title">
        <tbody>
          ${COUNTS.map(
            ([key, label]) => html`<tr data-count=${key}>
              <th scope="row">${label}</th>
              <td>${report.counts[key]}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      <h4 id="warnings-title">Problems</h4>
      ${
        report.warnings.length === 0
          ? html`<p class="ok" id="no-warnings">No problems: every entry is used as written.</p>`
          : html`<table class="warnings" aria-labelledby="warnings-title">
              <thead>
                <tr>
                  <th scope="col">Where</th>
                  <th scope="col">Problem</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                ${report.warnings.map(
                  (w) => html`<tr>
                    <td>${w.path}</td>
                    <td>${WARNING_WORDS[w.code] ?? w.code} <span class="muted">(<code>${w.code}</code>)</span></td>
                    <td>${w.message}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`
      }
      <h4 id="defaults-title">What a visitor sees first</h4>
      ${
        defaults.length === 0
          ? html`<p class="muted">No options to choose.</p>`
          : html`<table class="defaults" aria-labelledby="defaults-title">
              <thead>
                <tr>
                  <th scope="col">Option</th>
                  <th scope="col">Default choice</th>
                </tr>
              </thead>
              <tbody>
                ${defaults.map(([label, value]) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>`)}
              </tbody>
            </table>`
      }
      ${this.renderPrice(report.defaultPrice)}
    `;
  }

  private renderPrice(price: Price | null) {
    if (!price) return html`<p class="muted" id="no-pricing">This project has no pricing: visitors see no price.</p>`;
    return html`<h4 id="price-title">Default price</h4>
      <table class="price" aria-labelledby="price-title">
      <tbody>
        ${price.lines.map(
          (line) => html`<tr>
            <th scope="row">${line.label}</th>
            <td>${money(line.amount, price)}</td>
          </tr>`,
        )}
        <tr data-total>
          <th scope="row">Total</th>
          <td><strong>${money(price.total, price)}</strong></td>
        </tr>
        ${
          price.tax
            ? html`<tr>
                <th scope="row">${price.tax.label} (${Math.round(price.tax.rate * 10000) / 100} %)</th>
                <td>${price.tax.included ? 'included: ' : ''}${money(price.tax.amount, price)}</td>
              </tr>`
            : nothing
        }
      </tbody>
    </table>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'scene-report-panel': SceneReportPanel;
  }
}
