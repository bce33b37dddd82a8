import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Api, RevisionContent, RevisionSummary } from '../api.js';
import { announce, errorText, panelStyles } from '../styles.js';

const CURRENT = html` <span class="badge">current</span>`;
const when = (iso: string) => new Date(iso).toLocaleString();

/** What a revision holds, in the words of the editor's sections. */
function summary(content: RevisionContent): string[] {
  const data = content.data as { models?: unknown[]; sceneData?: Record<string, unknown[] | undefined> };
  const scene = data.sceneData ?? {};
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  const choices = (scene.optionBlocks ?? []).reduce<number>(
    (sum, block) => sum + count((block as { choices?: unknown[] }).choices),
    0,
  );
  return [
    `Name: ${content.name} (${content.type})`,
    `${count(data.models)} model(s)`,
    `${count(scene.optionBlocks)} option block(s) with ${choices} choice(s)`,
    `${count(scene.pricingBlocks)} pricing block(s)`,
    `${count(scene.formFields)} form field(s)`,
    `${count(scene.animationBlocks)} animation(s)`,
  ];
}

/** The project's kept revisions, newest first, each viewable and restorable (the editor does the restore). */
@customElement('editor-history-panel')
export class HistoryPanel extends LitElement {
  static override styles = panelStyles;

  @property({ attribute: false }) api!: Api;
  @property() projectId = '';
  /** The project's current revision: the list is read again when it changes. */
  @property({ type: Number }) revision = 0;
  @state() private revisions?: RevisionSummary[];
  @state() private opened?: RevisionContent;

  override updated(changed: PropertyValues<this>) {
    if (changed.has('projectId') || changed.has('revision')) void this.load();
  }

  private async load() {
    try {
      this.revisions = await this.api.revisions(this.projectId);
    } catch (error) {
      this.revisions = [];
      announce(this, `Could not read the revisions: ${errorText(error)}`, 'error');
    }
  }

  private async view(revision: number) {
    try {
      this.opened = await this.api.revision(this.projectId, revision);
    } catch (error) {
      announce(this, `Could not read revision ${revision}: ${errorText(error)}`, 'error');
    }
  }

  private restore(revision: number) {
    this.dispatchEvent(new CustomEvent('editor-restore', { detail: revision, bubbles: true, composed: true }));
  }

  override render() {
    if (!this.revisions) return html`<p class="muted">Reading the revisions…</p>`;
    return html`
      <p class="muted">Every save is a revision; the last 50 are kept. Restoring saves that content as a new one.</p>
      <table>
        <thead><tr><th scope="col">Revision</th><th scope="col">Saved</th><th scope="col">By</th>
          <th scope="col"><span class="muted">Actions</span></th></tr></thead>
        <tbody>
          ${this.revisions.map(
            (r) => html`<tr>
              <td>${r.revision}${r.revision === this.revision ? CURRENT : nothing}</td>
              <td>${when(r.savedAt)}</td>
              <td>${r.savedBy?.email ?? r.savedBy?.id ?? 'unknown'}</td>
              <td>
                <button @click=${() => this.view(r.revision)} aria-label=${`View revision ${r.revision}`}>View</button>
                ${
                  r.revision === this.revision
                    ? nothing
                    : html`<button
                        @click=${() => this.restore(r.revision)}
                        aria-label=${`Restore revision ${r.revision}`}
                        >Restore</button>`
                }
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${
        this.opened
          ? html`<section class="card" aria-labelledby="revision-title">
              <h3 id="revision-title">Revision ${this.opened.revision}, saved ${when(this.opened.savedAt)}</h3>
              <ul>${summary(this.opened).map((line) => html`<li>${line}</li>`)}</ul>
              ${
                this.opened.revision === this.revision
                  ? nothing
                  : html`<button class="primary" @click=${() => this.restore(this.opened!.revision)}
                      >Restore this revision</button>`
              }
            </section>`
          : nothing
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-history-panel': HistoryPanel;
  }
}
