import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Api, ProjectLabels, RequestDetail, RequestStatus, RequestSummary, StepName, StepState } from './api.js';
import { announce, errorText, panelStyles } from './styles.js';
import { customerOf, formRows, optionRows, type Row } from './request-rows.js';

const STEPS: Array<[StepName, string]> = [
  ['screenshots', 'Screenshots stored'],
  ['pdf', 'PDF rendered'],
  ['email', 'E-mail sent'],
  ['customerCopy', 'Copy to customer'],
  ['events', 'Webhook events'],
];
const STATUSES = ['new', 'in_progress', 'quoted', 'won', 'lost', 'archived'] as const satisfies RequestStatus[];
const RETRY_NOTE =
  'Background steps retry by themselves (8 attempts with backoff); the API offers no manual retry or resend, ' +
  'so a step that failed for good is shown with its error.';

/**
 * The requests panel: submissions with each background step's state, the PDF and screenshots. It offers no
 * retry because the API has none (each step retries itself), so it shows the state and says so.
 */
@customElement('requests-panel')
export class RequestsPanel extends LitElement {
  static override styles = panelStyles;

  @property({ attribute: false }) api!: Api;
  @property() projectId = '';
  @state() private requests: RequestSummary[] = [];
  @state() private open?: RequestDetail;
  @state() private loaded = false;
  @state() private labels: ProjectLabels = {};

  override updated(changed: PropertyValues<this>) {
    if (changed.has('projectId') || changed.has('api')) void this.load();
  }

  private async load() {
    // Labels are a nicety: without them the rows show the ids.
    void this.api.projectLabels(this.projectId).then(
      (labels) => (this.labels = labels),
      () => (this.labels = {}),
    );
    try {
      this.requests = (await this.api.requests(this.projectId)).requests;
      this.loaded = true;
      if (this.open) this.open = await this.api.request(this.projectId, this.open.id);
      announce(this, `${this.requests.length} request(s) loaded.`);
    } catch (error) {
      announce(this, `Could not list the requests: ${errorText(error)}`, 'error');
    }
  }

  private async show(id: string) {
    try {
      this.open = await this.api.request(this.projectId, id);
    } catch (error) {
      announce(this, `Could not read the request: ${errorText(error)}`, 'error');
    }
  }

  private async setStatus(event: Event) {
    const status = (event.target as HTMLSelectElement).value as RequestStatus;
    try {
      this.open = (await this.api.setRequestStatus(this.projectId, this.open!.id, status)).request;
      announce(this, `Status set to ${status}.`);
      await this.load();
    } catch (error) {
      announce(this, `Setting the status failed: ${errorText(error)}`, 'error');
    }
  }

  /** A request without a step (no copy to the visitor was asked for) shows a dash. */
  private step(state: StepState | undefined) {
    if (!state) return html`<span class="muted" title="not part of this request">-</span>`;
    const cls = state.state === 'done' ? 'ok' : state.state === 'failed' ? 'bad' : 'muted';
    return html`<span class=${cls}>${state.state}</span>${
      state.attempts > 1 ? html` <span class="muted">(${state.attempts} attempts)</span>` : nothing
    }`;
  }

  override render() {
    return html`
      <h3>Requests</h3>
      <p class="muted">${RETRY_NOTE}</p>
      <button @click=${this.load}>Refresh</button>
      ${
        this.loaded && this.requests.length === 0
          ? html`<p class="muted">No requests yet: they arrive when visitors submit the form of a shared project.</p>`
          : nothing
      }
      ${
        this.requests.length
          ? html`<table class="requests">
            <caption style="text-align:left">Newest first</caption>
            <thead><tr><th scope="col">Received</th><th scope="col">Customer</th><th scope="col">Status</th>${STEPS.map(
              ([, label]) => html`<th scope="col">${label}</th>`,
            )}<th scope="col"></th></tr></thead>
            <tbody>
              ${this.requests.map(
                (r) => html`<tr data-request=${r.id}>
                <td>${new Date(r.createdAt).toLocaleString()}</td>
                <td class="customer">${customerOf(r.formData)}</td>
                <td>${r.status}</td>
                ${STEPS.map(([name]) => html`<td data-step=${name}>${this.step(r.steps[name])}</td>`)}
                <td><button
                  @click=${() => this.show(r.id)}
                  aria-label=${`Open request of ${customerOf(r.formData)}, ${new Date(r.createdAt).toLocaleString()}`}
                >Open</button></td>
              </tr>`,
              )}
            </tbody>
          </table>`
          : nothing
      }
      ${this.open ? this.renderDetail(this.open) : nothing}
    `;
  }

  private table(id: string, title: string, what: string, rows: Row[]) {
    return html`<h4 id=${`${id}-title`}>${title}</h4>
      ${
        rows.length
          ? html`<table class=${id} aria-labelledby=${`${id}-title`}>
            <thead><tr><th scope="col">${what}</th><th scope="col">Value</th></tr></thead>
            <tbody>${rows.map(
              ([label, value]) =>
                html`<tr><th scope="row">${label}</th><td style="white-space:pre-wrap">${value}</td></tr>`,
            )}</tbody>
          </table>`
          : html`<p class="muted">None.</p>`
      }`;
  }

  private renderDetail(r: RequestDetail) {
    return html`<article class="card" aria-labelledby="request-title">
      <h3 id="request-title">Request from ${customerOf(r.formData)} <span class="muted"
        >(<code>${r.id}</code>)</span></h3>
      <label for="request-status">Status</label>
      <select id="request-status" @change=${this.setStatus}>
        ${STATUSES.map((s) => html`<option value=${s} ?selected=${s === r.status}>${s}</option>`)}
      </select>
      <h4>Background steps</h4>
      <ul>
        ${STEPS.map(([name, label]) => {
          const s = r.steps[name];
          if (!s) return nothing;
          return html`<li>${label}: ${this.step(s)}${
            s.error ? html` <span class="bad">${s.error}</span>` : nothing
          }${s.note ? html` <span class="muted">${s.note}</span>` : nothing}</li>`;
        })}
      </ul>
      <p>PDF: ${
        r.pdfUrl
          ? html`<a id="pdf-link" href=${r.pdfUrl} target="_blank" rel="noopener">open the PDF</a> <span class="muted"
              >(link valid 1 hour)</span>`
          : html`<span class="muted">not rendered yet</span>`
      }</p>
      ${this.table('form-data', 'Form data', 'Field', formRows(r.formData, this.labels))}
      ${
        Object.keys(r.selectedOptions ?? {}).length
          ? this.table('selected-options', 'Selected options', 'Option', optionRows(r.selectedOptions, this.labels))
          : nothing
      }
      ${r.configurationSummary ? html`<h4>Summary</h4><pre>${r.configurationSummary}</pre>` : nothing}
      <h4>Screenshots</h4>
      ${r.screenshots.length === 0 ? html`<p class="muted">None sent.</p>` : nothing}
      <div class="row">
        ${r.screenshots.map((url, i) =>
          url
            ? html`<a href=${url} target="_blank" rel="noopener"><img
                src=${url}
                alt=${`Screenshot ${i + 1}`}
                style="max-width:14rem;border:1px solid #ccc"
              /></a>`
            : html`<span class="muted">Screenshot ${i + 1}: not stored yet</span>`,
        )}
      </div>
    </article>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'requests-panel': RequestsPanel;
  }
}
