import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Api, DeliveryRecord, Webhook, WebhookTest } from './api.js';
import { WEBHOOK_EVENT_TYPES as EVENT_TYPES } from '#core/wire/webhook-event-types.js';
import { announce, errorText, panelStyles } from './styles.js';

/** The API's webhook id rule, written so that it compiles under the `v` flag browsers give pattern attributes. */
const ID_PATTERN = String.raw`[A-Za-z0-9_\-]{1,64}`;

/** An id suggested from a name: "Our CRM (EU)" becomes "our-crm-eu". */
const idFromName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);

const DISABLED_REASONS: Record<string, string> = {
  gone: 'the receiver answered 410 Gone',
  failing: 'every delivery failed for 5 days',
};

const LOG_COLUMNS = ['When', 'Event', 'Status', 'Attempt', 'Next retry', 'Request / response', ''];

/** The webhooks panel: webhooks, a test against the receiver, the delivery log and redelivery. */
@customElement('webhooks-panel')
export class WebhooksPanel extends LitElement {
  static override styles = panelStyles;

  @property({ attribute: false }) api!: Api;
  @property() projectId = '';
  @state() private webhooks: Webhook[] = [];
  @state() private secretOnce?: { id: string; secret: string };
  @state() private tests: Record<string, WebhookTest> = {};
  @state() private logs: Record<string, DeliveryRecord[]> = {};
  @state() private editing = '';
  @state() private busy = false;
  /** Whether the person typed an id themselves: the name stops suggesting one then. */
  private idTyped = false;

  override updated(changed: PropertyValues<this>) {
    if (changed.has('projectId') || changed.has('api')) void this.load();
  }

  private async load() {
    try {
      this.webhooks = await this.api.webhooks(this.projectId);
    } catch (error) {
      announce(this, `Could not list the webhooks: ${errorText(error)}`, 'error');
    }
  }

  private async act<T>(what: string, action: () => Promise<T>): Promise<T | undefined> {
    this.busy = true;
    try {
      const result = await action();
      announce(this, what);
      return result;
    } catch (error) {
      announce(this, `${what.replace(/\.$/, '')} failed: ${errorText(error)}`, 'error');
      return undefined;
    } finally {
      this.busy = false;
    }
  }

  private events(form: FormData) {
    return EVENT_TYPES.filter((type) => form.get(`event:${type}`) === 'on');
  }

  private async create(event: SubmitEvent) {
    event.preventDefault();
    const target = event.target as HTMLFormElement;
    const form = new FormData(target);
    const id = String(form.get('id'));
    const secret = String(form.get('secret') ?? '');
    const result = await this.act(`Webhook ${id} created.`, () =>
      this.api.putWebhook(this.projectId, id, {
        url: String(form.get('url')),
        name: String(form.get('name') || id),
        events: this.events(form),
        ...(secret ? { secret } : {}),
      }),
    );
    if (!result) return;
    if (result.secret) this.secretOnce = { id, secret: result.secret };
    target.reset();
    this.idTyped = false;
    await this.load();
  }

  private async saveEdit(event: SubmitEvent, hook: Webhook) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const ok = await this.act(`Webhook ${hook.id} saved.`, () =>
      this.api.putWebhook(this.projectId, hook.id, {
        url: String(form.get('url')),
        name: String(form.get('name') || hook.id),
        events: this.events(form),
        enabled: hook.enabled,
      }),
    );
    if (ok) {
      this.editing = '';
      await this.load();
    }
  }

  private async setEnabled(hook: Webhook, enabled: boolean) {
    const ok = await this.act(`Webhook ${hook.id} ${enabled ? 'enabled' : 'disabled'}.`, () =>
      this.api.putWebhook(this.projectId, hook.id, { url: hook.url, name: hook.name, events: hook.events, enabled }),
    );
    if (ok) await this.load();
  }

  private async deleteWebhook(hook: Webhook) {
    if (!confirm(`Delete webhook ${hook.id} and its delivery log?`)) return;
    const ok = await this.act(`Webhook ${hook.id} deleted.`, () => this.api.deleteWebhook(this.projectId, hook.id));
    if (ok) await this.load();
  }

  private async test(hook: Webhook) {
    const test = await this.act(`Test sent to ${hook.id}.`, () => this.api.testWebhook(this.projectId, hook.id));
    if (!test) return;
    this.tests = { ...this.tests, [hook.id]: test };
    announce(
      this,
      `Test of ${hook.id}: ${test.delivered ? 'delivered' : 'not delivered'}, ` +
        `receiver answered ${test.statusCode || 'nothing'} ${test.statusText ?? ''}` +
        `${test.error ? ` (${test.error})` : ''}.`,
      test.delivered ? 'info' : 'error',
    );
    await this.showLog(hook);
  }

  private async showLog(hook: Webhook) {
    const log = await this.act(`Delivery log of ${hook.id} loaded.`, () =>
      this.api.deliveries(this.projectId, hook.id),
    );
    if (log) this.logs = { ...this.logs, [hook.id]: log };
  }

  private async redeliver(hook: Webhook, record: DeliveryRecord) {
    const ok = await this.act(`Delivery ${record.deliveryId} queued again.`, () =>
      this.api.redeliver(this.projectId, hook.id, record.deliveryId),
    );
    if (ok) setTimeout(() => void this.showLog(hook), 1500);
  }

  private suggestId(event: InputEvent) {
    if (this.idTyped) return;
    const id = this.renderRoot.querySelector<HTMLInputElement>('#wh-id');
    if (id) id.value = idFromName((event.target as HTMLInputElement).value);
  }

  private eventBoxes(idPrefix: string, checked: string[]) {
    return html`<fieldset><legend>Events</legend>
      ${EVENT_TYPES.map(
        (type) =>
          html`<label class="inline"><input
              type="checkbox"
              name=${`event:${type}`}
              id=${`${idPrefix}-${type}`}
              ?checked=${checked.includes(type)}
            /> ${type}</label>`,
      )}
    </fieldset>`;
  }

  override render() {
    return html`
      <h3>Webhooks</h3>
      ${
        this.secretOnce
          ? html`<div class="card" role="alert">
            <p><strong>Signing secret of ${this.secretOnce.id}</strong>, shown only now; store it with the receiver:</p>
            <pre id="secret-once">${this.secretOnce.secret}</pre>
            <button @click=${() => (this.secretOnce = undefined)}>I stored it, hide it</button>
          </div>`
          : nothing
      }
      ${this.webhooks.length === 0 ? html`<p class="muted">No webhooks yet.</p>` : nothing}
      ${this.webhooks.map((hook) => this.renderWebhook(hook))}

      <form @submit=${this.create} aria-label="New webhook" class="card">
        <h3>New webhook</h3>
        <div class="row">
          <div><label for="wh-name">Name</label><input
            id="wh-name"
            name="name"
            type="text"
            maxlength="100"
            @input=${this.suggestId}
          /></div>
          <div><label for="wh-id">Id (letters, digits, _ and -)</label><input
            id="wh-id"
            name="id"
            type="text"
            required
            pattern=${ID_PATTERN}
            maxlength="64"
            @input=${() => (this.idTyped = true)}
          /></div>
        </div>
        <label for="wh-url">URL (https://)</label>
        <input id="wh-url" name="url" type="url" required style="width:100%" />
        <label for="wh-secret">Secret (leave empty to have one generated and shown once)</label>
        <input id="wh-secret" name="secret" type="password" autocomplete="off" minlength="16" maxlength="256" />
        ${this.eventBoxes('new', ['form.submitted'])}
        <button class="primary" type="submit" ?disabled=${this.busy}>Create webhook</button>
      </form>
    `;
  }

  private renderWebhook(hook: Webhook) {
    const test = this.tests[hook.id];
    const log = this.logs[hook.id];
    return html`<article class="card" aria-labelledby=${`wh-title-${hook.id}`} data-webhook=${hook.id}>
      <h4 id=${`wh-title-${hook.id}`} style="margin:0.2rem 0">${hook.name} <span class="badge">${hook.id}</span>
        <span class=${hook.enabled ? 'ok' : 'bad'}>${hook.enabled ? 'enabled' : 'disabled'}</span></h4>
      ${
        !hook.enabled && hook.disabledReason
          ? html`<p class="bad">Switched off by the platform${
              hook.disabledAt ? ` on ${new Date(hook.disabledAt).toLocaleString()}` : ''
            }: ${
              DISABLED_REASONS[hook.disabledReason] ?? hook.disabledReason
            }. Enable it again once the receiver works.</p>`
          : nothing
      }
      ${
        hook.failingSince
          ? html`<p class="bad">Deliveries failing since ${new Date(hook.failingSince).toLocaleString()}.</p>`
          : nothing
      }
      <p><code>${hook.url}</code><br /><span class="muted">Events: ${hook.events.join(', ')}</span></p>
      <button @click=${() => this.test(hook)} ?disabled=${this.busy}>Send test</button>
      <button @click=${() => this.showLog(hook)} ?disabled=${this.busy}>Delivery log</button>
      <button
        @click=${() => (this.editing = this.editing === hook.id ? '' : hook.id)}
        aria-expanded=${this.editing === hook.id}
      >Edit</button>
      <button @click=${() => this.setEnabled(hook, !hook.enabled)} ?disabled=${this.busy}
        >${hook.enabled ? 'Disable' : 'Enable'}</button>
      <button class="danger" @click=${() => this.deleteWebhook(hook)} ?disabled=${this.busy}>Delete</button>
      ${
        test
          ? html`<p class="test-result ${test.delivered ? 'ok' : 'bad'}">Test: ${
              test.delivered ? 'delivered' : 'not delivered'
            }; receiver answered
            <strong>${test.statusCode || 'nothing'}</strong> ${test.statusText} in ${test.durationMs} ms${
              test.error ? `; error: ${test.error}` : ''
            }.</p>`
          : nothing
      }
      ${
        this.editing === hook.id
          ? html`<form @submit=${(e: SubmitEvent) => this.saveEdit(e, hook)} aria-label=${`Edit ${hook.id}`}>
            <label for=${`edit-name-${hook.id}`}>Name</label><input
              id=${`edit-name-${hook.id}`}
              name="name"
              type="text"
              .value=${hook.name}
            />
            <label for=${`edit-url-${hook.id}`}>URL</label><input
              id=${`edit-url-${hook.id}`}
              name="url"
              type="url"
              required
              .value=${hook.url}
              style="width:100%"
            />
            ${this.eventBoxes(`edit-${hook.id}`, hook.events)}
            <button class="primary" type="submit" ?disabled=${this.busy}>Save webhook</button>
          </form>`
          : nothing
      }
      ${log ? this.renderLog(hook, log) : nothing}
    </article>`;
  }

  /** The delivery's next retry, on the row of its latest attempt only, numbered as that attempt will be. */
  private nextRetry(r: DeliveryRecord) {
    if (r.attempt < r.deliveryAttempts) return html`<span class="muted">retried</span>`;
    if (r.deliveryState !== 'pending' || !r.nextAttemptAt) return '—';
    return `attempt ${r.deliveryAttempts + 1}, ${new Date(r.nextAttemptAt).toLocaleString()}`;
  }

  private renderLog(hook: Webhook, log: DeliveryRecord[]) {
    if (log.length === 0) return html`<p class="muted">No deliveries yet.</p>`;
    return html`<table class="delivery-log">
      <caption style="text-align:left">Delivery log of ${hook.id} (newest first, last 50 attempts)</caption>
      <thead><tr>${LOG_COLUMNS.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
      <tbody>
        ${log.map(
          (r) => html`<tr>
          <td>${new Date(r.timestamp).toLocaleString()}</td>
          <td>${r.event}</td>
          <td class=${r.delivered ? 'ok' : 'bad'}>${r.statusCode || '—'} ${
            r.delivered ? 'delivered' : (r.error ?? 'failed')
          }<br /><span class="muted">${r.durationMs} ms; delivery ${r.deliveryState}</span></td>
          <td>${r.attempt}</td>
          <td>${this.nextRetry(r)}</td>
          <td><details><summary>excerpts</summary>
            <div>Request</div><pre>${r.requestExcerpt}</pre>
            <div>Response</div><pre>${r.responseBody ?? '(none)'}</pre></details></td>
          <td>${
            r.deliveryState !== 'pending' && r.event !== 'webhook.test'
              ? html`<button @click=${() => this.redeliver(hook, r)} ?disabled=${this.busy || !hook.enabled}
                  >Redeliver</button>`
              : nothing
          }</td>
        </tr>`,
        )}
      </tbody>
    </table>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'webhooks-panel': WebhooksPanel;
  }
}
