import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AnalyticsReport, Api, DayCounters } from './api.js';
import { chartLegend, dailyChart } from './analytics-chart.js';
import { announce, errorText, panelStyles } from './styles.js';

const PERIODS = [7, 30, 90, 365] as const;
type Period = (typeof PERIODS)[number];
const DAY_MS = 86_400_000;

/** A day's counters; `cartAdds` (configurations put in a cart, docs/cart.md) is absent from older servers' answers. */
type Counters = DayCounters & { cartAdds?: number };

/** Every counter with the words an owner reads, in the order the totals and the day table show them. */
const COUNTERS: Array<[keyof Counters, string]> = [
  ['views', 'Views'],
  ['sessions', 'Visitor sessions'],
  ['optionChanges', 'Option changes'],
  ['submissions', 'Submissions'],
  ['animations', 'Animations played'],
  ['arOpens', 'AR views opened'],
  ['saves', 'Configurations saved'],
  ['cartAdds', 'Added to cart'],
];

const count = new Intl.NumberFormat();
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });

/** The last `days` UTC days ending today, as the analytics read takes them (YYYY-MM-DD, inclusive). */
function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(to) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return { from, to };
}

/** The analytics panel (docs/owner-console.md): daily counters as a chart and a table, totals, top choices. */
@customElement('analytics-panel')
export class AnalyticsPanel extends LitElement {
  static override styles = [
    panelStyles,
    css`
      .legend { list-style: none; display: flex; gap: 1.2rem; padding: 0; margin: 0.3rem 0 0.8rem; }
      .legend li { display: flex; gap: 0.4rem; align-items: center; }
      .totals td { text-align: right; }
      .totals { max-width: 28rem; }
      details { margin: 0.5rem 0; }
      .days { max-height: 24rem; overflow: auto; }
      .days th[scope='row'] { white-space: nowrap; }
    `,
  ];

  @property({ attribute: false }) api!: Api;
  @property() projectId = '';
  @state() private period: Period = 30;
  @state() private report?: AnalyticsReport;
  @state() private loading = false;

  // Untyped: `period` is private state, which PropertyValues<this> does not name.
  override updated(changed: PropertyValues) {
    if (changed.has('projectId') || changed.has('api') || changed.has('period')) void this.load();
  }

  private async load() {
    this.loading = true;
    const asked = { projectId: this.projectId, period: this.period };
    try {
      const report = await this.api.analytics(this.projectId, { ...lastDays(this.period), top: 10 });
      // A slower answer for a period or project no longer shown is dropped.
      if (asked.projectId !== this.projectId || asked.period !== this.period) return;
      this.report = report;
      announce(this, `Analytics for the last ${this.period} days loaded.`);
    } catch (error) {
      this.report = undefined;
      announce(this, `Could not read the analytics: ${errorText(error)}`, 'error');
    } finally {
      this.loading = false;
    }
  }

  override render() {
    const report = this.report;
    return html`
      <h3>Analytics</h3>
      <fieldset>
        <legend>Period</legend>
        ${PERIODS.map(
          (days) => html`<label class="inline"
            ><input
              type="radio"
              name="period"
              .checked=${this.period === days}
              @change=${() => (this.period = days)}
            />Last ${days} days</label
          >`,
        )}
        <button @click=${this.load} ?disabled=${this.loading}>Refresh</button>
      </fieldset>
      ${this.loading && !report ? html`<p class="muted">Loading…</p>` : nothing}
      ${report ? this.renderReport(report) : nothing}
    `;
  }

  private renderReport(report: AnalyticsReport) {
    const quiet = report.totals.views === 0 && report.totals.submissions === 0;
    return html`
      <p class="muted">UTC days from ${report.from} to ${report.to}, counted as the events arrive.</p>
      ${
        quiet
          ? html`<p class="muted">
              No visits in this period yet: views are counted when a shared page shows the project.
            </p>`
          : nothing
      }
      <figure style="margin:0">
        ${dailyChart(report, 'analytics-chart-title')} ${chartLegend()}
      </figure>
      <details>
        <summary>The figures per day, as a table</summary>
        <div class="days">
        <table>
          <caption style="text-align:left">Per day, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              ${COUNTERS.map(([, label]) => html`<th scope="col">${label}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${report.days.map(
              (day) => html`<tr>
                <th scope="row">${day.date}</th>
                ${COUNTERS.map(([key]) => html`<td>${count.format((day as Counters)[key] ?? 0)}</td>`)}
              </tr>`,
            )}
          </tbody>
        </table>
        </div>
      </details>
      <h4 id="totals-title">Totals</h4>
      <table class="totals" aria-labelledby="totals-title">
        <tbody>
          ${COUNTERS.map(
            ([key, label]) => html`<tr data-counter=${key}>
              <th scope="row">${label}</th>
              <td>${count.format((report.totals as Counters)[key] ?? 0)}</td>
            </tr>`,
          )}
          <tr data-counter="conversion">
            <th scope="row">Conversion (submissions per session)</th>
            <td>${report.conversion === null ? 'no sessions yet' : percent.format(report.conversion)}</td>
          </tr>
        </tbody>
      </table>
      <h4 id="top-choices-title">Most chosen options</h4>
      ${
        report.topChoices.length === 0
          ? html`<p class="muted">No option changes in this period.</p>`
          : html`<table class="top-choices" aria-labelledby="top-choices-title">
              <thead>
                <tr>
                  <th scope="col">Option</th>
                  <th scope="col">Choice</th>
                  <th scope="col">Times chosen</th>
                </tr>
              </thead>
              <tbody>
                ${report.topChoices.map(
                  (c) => html`<tr>
                    <td>${c.blockName ?? html`${c.blockId} <span class="muted">(no longer in the project)</span>`}</td>
                    <td>${c.label ?? html`${c.choiceId} <span class="muted">(no longer in the project)</span>`}</td>
                    <td>${count.format(c.count)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'analytics-panel': AnalyticsPanel;
  }
}
