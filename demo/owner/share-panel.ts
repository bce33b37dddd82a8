import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { Api, ShareSettings } from './api.js';
import { loadElement } from './element-loader.js';
import { announce, errorText, panelStyles } from './styles.js';

const REGENERATE_WARNING =
  'The current link, every script-tag embed and every iframe stop working at once. ' +
  'Pages must be updated with the new token.';

/**
 * The share panel: settings, link, snippets and a live preview. PUT replaces the whole settings object
 * (docs/api.md, Share settings), so saving a password-protected share needs the password typed again.
 */
@customElement('share-panel')
export class SharePanel extends LitElement {
  static override styles = panelStyles;

  @property({ attribute: false }) api!: Api;
  @property() projectId = '';
  @state() private settings?: ShareSettings;
  @state() private busy = false;
  @query('#regenerate-dialog') private dialog!: HTMLDialogElement;

  override updated(changed: PropertyValues<this>) {
    if (changed.has('projectId') || changed.has('api')) void this.load();
  }

  private async load() {
    try {
      this.settings = await this.api.share(this.projectId);
      await loadElement();
    } catch (error) {
      announce(this, `Could not read the share settings: ${errorText(error)}`, 'error');
    }
  }

  private get origin() {
    return location.origin;
  }

  private get link() {
    return this.settings ? `${this.origin}/share/${this.projectId}/${this.settings.shareToken}` : '';
  }

  private async run(what: string, action: () => Promise<ShareSettings>) {
    this.busy = true;
    try {
      this.settings = await action();
      this.dispatchEvent(
        new CustomEvent('share-changed', {
          detail: { projectId: this.projectId, isEnabled: this.settings.isEnabled },
          bubbles: true,
          composed: true,
        }),
      );
      announce(this, `${what}. The preview reloads in a second.`);
      // Every BFF drops its cached answer within a second of a change (docs/bff.md, Invalidation).
      setTimeout(() => this.reloadPreview(), 1100);
    } catch (error) {
      announce(this, `${what} failed: ${errorText(error)}`, 'error');
    } finally {
      this.busy = false;
    }
  }

  private async save(event: SubmitEvent) {
    event.preventDefault();
    // Read before any await: once dispatch ends, an event from a shadow tree has no target.
    const element = event.target as HTMLFormElement;
    const form = new FormData(element);
    const requirePassword = form.get('requirePassword') === 'on';
    const password = String(form.get('password') ?? '');
    if (requirePassword && !password) {
      announce(
        this,
        'Type the password: the API replaces the whole settings object on every save, ' +
          'so a protected share needs it again.',
        'error',
      );
      return;
    }
    const hosts = String(form.get('hosts') ?? '')
      .split(/[\s,]+/)
      .map((h) => h.trim())
      .filter(Boolean);
    await this.run('Share settings saved', () =>
      this.api.putShare(this.projectId, {
        isEnabled: form.get('isEnabled') === 'on',
        requirePassword,
        ...(requirePassword ? { password } : {}),
        domainRestrictions: hosts,
      }),
    );
    element.querySelector<HTMLInputElement>('#password')!.value = '';
  }

  /** Off is a PUT of the whole object (the interface has no other disabling operation). */
  private async disable() {
    const s = this.settings!;
    if (s.requirePassword) {
      announce(
        this,
        'This share has a password: uncheck "Sharing enabled" in the form below and type the password to save ' +
          '(the API replaces the whole settings object).',
        'error',
      );
      return;
    }
    await this.run('Sharing is off: the link and every embed are offline', () =>
      this.api.putShare(this.projectId, {
        isEnabled: false,
        requirePassword: false,
        domainRestrictions: s.domainRestrictions,
      }),
    );
  }

  /** The native dialog closed (a button of its `method="dialog"` form, or Escape): act on its answer. */
  private async onDialogClose() {
    const answer = this.dialog.returnValue;
    this.dialog.returnValue = '';
    if (answer !== 'regenerate') return announce(this, 'The share token was kept.');
    await this.run('A new share token was made; the old link and embeds stopped working', () =>
      this.api.regenerateShare(this.projectId),
    );
  }

  /** The element's own reload() (element/README.md, API): one element, re-read, not a new one per change. */
  private reloadPreview() {
    const preview = this.renderRoot.querySelector('config-share') as (HTMLElement & { reload?: () => void }) | null;
    preview?.reload?.();
  }

  private async copy(text: string, what: string) {
    try {
      await navigator.clipboard.writeText(text);
      announce(this, `${what} copied.`);
    } catch {
      announce(
        this,
        `Copying was refused by the browser; select the ${what.toLowerCase()} and copy it by hand.`,
        'error',
      );
    }
  }

  override render() {
    const s = this.settings;
    if (!s) return html`<p class="muted">Loading the share settings…</p>`;
    const scriptSnippet =
      `<script type="module" src="${this.origin}/element/config-share.js"></script>\n` +
      `<config-share project-id="${this.projectId}" token="${s.shareToken}"></config-share>`;
    const iframeSnippet =
      `<iframe src="${this.link}" width="800" height="600" style="border:0;max-width:100%" loading="lazy" ` +
      'allow="fullscreen; xr-spatial-tracking" allowfullscreen title="3D configurator"></iframe>';
    return html`
      <h3>Share state</h3>
      <p>
        Sharing is <strong id="share-state" class=${s.isEnabled ? 'ok' : 'bad'}>${s.isEnabled ? 'on' : 'off'}</strong>;
        password ${s.requirePassword ? 'required' : 'not required'};
        ${
          s.domainRestrictions.length
            ? html`embeds allowed on ${s.domainRestrictions.join(', ')}`
            : 'embeds allowed on any host'
        }.
      </p>
      <p>${
        s.isEnabled
          ? html`<button class="danger" ?disabled=${this.busy} @click=${this.disable}>Turn sharing off</button>`
          : html`<button
              class="primary"
              ?disabled=${this.busy}
              @click=${() => this.run('Sharing is on', () => this.api.enableShare(this.projectId))}
            >Turn sharing on</button>`
      }</p>

      <form @submit=${this.save} aria-label="Share settings">
        <fieldset>
          <legend>Share settings</legend>
          <label class="inline"><input type="checkbox" name="isEnabled" .checked=${s.isEnabled}
            /> Sharing enabled</label>
          <label class="inline"><input type="checkbox" name="requirePassword" .checked=${s.requirePassword}
            /> Require a password</label>
          <label for="password">Password ${
            s.requirePassword ? '(type it again to keep it, or a new one to change it)' : '(when required)'
          }</label>
          <input id="password" name="password" type="password" autocomplete="new-password" maxlength="200" />
          <label for="hosts">Allowed embed hosts (one per line; empty: any host; <code
            >*.example.com</code> for sub-domains)</label>
          <textarea id="hosts" name="hosts" .value=${s.domainRestrictions.join('\n')}></textarea>
          <p><button class="primary" type="submit" ?disabled=${this.busy}>Save share settings</button>
          <span class="muted">Uncheck "Require a password" and save to remove the password.</span></p>
        </fieldset>
      </form>

      <h3>Share link</h3>
      <p><a id="share-link" href=${this.link} target="_blank" rel="noopener">${this.link}</a></p>
      <button @click=${() => this.copy(this.link, 'Share link')}>Copy link</button>
      <button class="danger" @click=${() => this.dialog.showModal()} ?disabled=${this.busy}>Regenerate token…</button>

      <dialog id="regenerate-dialog" aria-labelledby="regen-title" @close=${this.onDialogClose}>
        <h3 id="regen-title">Regenerate the share token?</h3>
        <p>${REGENERATE_WARNING}</p>
        <form method="dialog">
          <button class="danger" value="regenerate">Regenerate</button>
          <button value="cancel" autofocus>Cancel</button>
        </form>
      </dialog>

      <h3>Embed</h3>
      <label for="snippet-script">Script tag</label>
      <textarea id="snippet-script" readonly .value=${scriptSnippet}></textarea>
      <button @click=${() => this.copy(scriptSnippet, 'Script tag')}>Copy script tag</button>
      <label for="snippet-iframe">Iframe</label>
      <textarea id="snippet-iframe" readonly .value=${iframeSnippet}></textarea>
      <button @click=${() => this.copy(iframeSnippet, 'Iframe')}>Copy iframe</button>

      <h3>Live preview</h3>
      <p><button @click=${this.reloadPreview}>Reload preview</button></p>
      <div style="border:1px solid #ccc;height:420px;position:relative">
        <!-- events="off": the owner's own clicks are never counted as visitors. -->
        <config-share
          id="preview"
          project-id=${this.projectId}
          token=${s.shareToken}
          events="off"
          style="display:block;height:100%"
        ></config-share>
      </div>
      ${nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'share-panel': SharePanel;
  }
}
