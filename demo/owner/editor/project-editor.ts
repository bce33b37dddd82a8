import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { unsafeStatic, html as staticHtml } from 'lit/static-html.js';
import { ApiError, type Api } from '../api.js';
import { loadElement } from '../element-loader.js';
import { announce, errorText, panelStyles } from '../styles.js';
import { EditHistory } from './edit-history.js';
import { editorStyles } from './editor-styles.js';
import {
  EDIT_EVENT,
  SELECT_CHOICE_EVENT,
  USE_VIEW_EVENT,
  type EditDetail,
  type OutlinesByModel,
  type ProjectDataDraft,
  type SceneWarning,
  type SelectChoiceDetail,
} from './editor-types.js';
import { thumbnailFrom } from './thumbnail-image.js';
import { reapplyEdits } from './reapply-edits.js';
import './panels/index.js';
import './models-panel.js';
import './history-panel.js';
import '../share-panel.js';
import '../webhooks-panel.js';
import '../requests-panel.js';
import '../configurations-panel.js';
import '../analytics-panel.js';
import '../scene-report-panel.js';

/** After the last edit, the preview is asked for once this quiet time passed (the edit shows within 500 ms). */
const PREVIEW_DEBOUNCE_MS = 120;

type Section =
  | 'models'
  | 'options'
  | 'price'
  | 'form'
  | 'animations'
  | 'look'
  | 'history'
  | 'share'
  | 'requests'
  | 'configurations'
  | 'webhooks'
  | 'analytics'
  | 'scene';

/** The editor's sections; `tag` names the content panel that edits the draft (editor/panels/). */
const SECTIONS: Array<{ id: Section; label: string; tag?: string; group: 'build' | 'run' }> = [
  { id: 'models', label: 'Models', group: 'build' },
  { id: 'options', label: 'Options', tag: 'editor-options-panel', group: 'build' },
  { id: 'price', label: 'Price', tag: 'editor-price-panel', group: 'build' },
  { id: 'form', label: 'Form', tag: 'editor-form-panel', group: 'build' },
  { id: 'animations', label: 'Animations', tag: 'editor-animations-panel', group: 'build' },
  { id: 'look', label: 'Look', tag: 'editor-look-panel', group: 'build' },
  { id: 'history', label: 'History', group: 'build' },
  { id: 'share', label: 'Share', group: 'run' },
  { id: 'requests', label: 'Requests', group: 'run' },
  { id: 'configurations', label: 'Configurations', group: 'run' },
  { id: 'webhooks', label: 'Webhooks', group: 'run' },
  { id: 'analytics', label: 'Analytics', group: 'run' },
  { id: 'scene', label: 'Scene report', group: 'run' },
];

type PreviewElement = HTMLElement & {
  preview?: unknown;
  setOption?: (blockId: string, choiceId: string) => Promise<boolean>;
  getCameraView?: () => { position: unknown; target: unknown };
  screenshot?: () => Promise<string | null>;
};

/** A stored `data` with the fields every panel reads filled in, so panels never meet a missing list. */
function draftOf(stored: object): ProjectDataDraft {
  const data = stored as Record<string, unknown>;
  const quality = data.renderQuality;
  return {
    ...data,
    models: Array.isArray(data.models) ? (data.models as ProjectDataDraft['models']) : [],
    sceneData:
      data.sceneData && typeof data.sceneData === 'object' ? (data.sceneData as ProjectDataDraft['sceneData']) : {},
    renderQuality: quality === 'low' || quality === 'high' ? quality : 'optimised',
    saveConfigEnabled: data.saveConfigEnabled === true,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Where a key press goes to the browser's own undo: text being typed. */
function isTextEntry(target: EventTarget | undefined): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
}

/**
 * A project's editor: the draft `{ name, type, data }`, undo and redo over the session's edits, the live preview of
 * unsaved edits, save with If-Match and its conflict, and the sections' panels (docs/owner-console.md, "The editor").
 */
@customElement('project-editor')
export class ProjectEditor extends LitElement {
  static override styles = [panelStyles, editorStyles];

  @property({ attribute: false }) api!: Api;
  @property() projectId = '';
  @state() private section: Section = 'models';
  @state() private name = '';
  @state() private type = '';
  @state() private data?: ProjectDataDraft;
  /** What the last load or save holds: the draft is dirty when it differs. */
  @state() private saved?: { name: string; data: ProjectDataDraft };
  @state() private revision = 0;
  @state() private warnings: SceneWarning[] = [];
  @state() private outlines: OutlinesByModel = {};
  @state() private saving = false;
  @state() private previewNote = '';
  @state() private conflictRevision?: number;
  /** Whether a preview payload arrived: until then the element is not shown (it has no project to read). */
  @state() private previewShown = false;
  @query('#conflict-dialog') private conflictDialog!: HTMLDialogElement;
  @query('#leave-dialog') private leaveDialog!: HTMLDialogElement;
  @query('#live-preview') private previewElement?: PreviewElement;

  private etag = '';
  private readonly history = new EditHistory();
  private previewTimer?: ReturnType<typeof setTimeout>;
  private previewSeq = 0;
  /** The draft the preview was last given, and the one it has drawn (its `config-share-rendered`). */
  private previewedData?: ProjectDataDraft;
  private drawnData?: ProjectDataDraft;
  private readonly drawWaiters = new Set<() => void>();
  private readonly outlinesByAsset = new Map<string, Promise<OutlinesByModel[string]>>();

  private readonly onKey = (event: KeyboardEvent) => this.shortcut(event);
  private readonly onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!this.dirty) return;
    event.preventDefault();
    event.returnValue = '';
  };

  override connectedCallback() {
    super.connectedCallback();
    window.addEventListener('keydown', this.onKey);
    window.addEventListener('beforeunload', this.onBeforeUnload);
    this.addEventListener(EDIT_EVENT, (event) => this.onEdit(event as CustomEvent<EditDetail>));
    this.addEventListener(SELECT_CHOICE_EVENT, (event) => {
      const { blockId, choiceId } = (event as CustomEvent<SelectChoiceDetail>).detail;
      void this.previewElement?.setOption?.(blockId, choiceId);
    });
    this.addEventListener(USE_VIEW_EVENT, () => this.useView());
    this.addEventListener('editor-restore', (event) => void this.restore((event as CustomEvent<number>).detail));
    void loadElement().catch(() => (this.previewNote = 'The <config-share> element could not be loaded.'));
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.onKey);
    window.removeEventListener('beforeunload', this.onBeforeUnload);
    clearTimeout(this.previewTimer);
  }

  override updated(changed: PropertyValues<this>) {
    if (changed.has('projectId') || changed.has('api')) void this.load();
  }

  /** Unsaved edits: the name or data differ from what was last loaded or saved. */
  get dirty(): boolean {
    return !!this.saved && !!this.data && (this.saved.name !== this.name || !same(this.saved.data, this.data));
  }

  /** Asks before unsaved edits are dropped (switching project or console section); true: go on. */
  async confirmLeave(): Promise<boolean> {
    if (!this.dirty) return true;
    this.leaveDialog.returnValue = '';
    this.leaveDialog.showModal();
    await new Promise((resolve) => this.leaveDialog.addEventListener('close', resolve, { once: true }));
    return this.leaveDialog.returnValue === 'leave';
  }

  private async load() {
    if (!this.api || !this.projectId) return;
    try {
      const { project, etag } = await this.api.project(this.projectId);
      this.adopt(project.name, project.type, draftOf(project.data), project.revision, etag);
      this.history.clear();
      this.requestUpdate();
      this.schedulePreview(0);
    } catch (error) {
      announce(this, `Could not open the project: ${errorText(error)}`, 'error');
    }
  }

  /** Takes a read or saved project as the new saved state and draft. */
  private adopt(name: string, type: string, data: ProjectDataDraft, revision: number, etag: string) {
    this.name = name;
    this.type = type;
    this.data = data;
    this.saved = { name, data };
    this.revision = revision;
    this.etag = etag;
    void this.loadOutlines(data);
  }

  private onEdit(event: CustomEvent<EditDetail>) {
    const { data, label } = event.detail;
    if (!this.data || same(data, this.data)) return;
    this.history.record(this.data, data, label);
    this.requestUpdate();
    this.apply(data);
  }

  /** Shows `data` as the draft: the panels, the outlines and, shortly, the preview follow. */
  private apply(data: ProjectDataDraft) {
    this.data = data;
    void this.loadOutlines(data);
    this.schedulePreview(PREVIEW_DEBOUNCE_MS);
  }

  private undo() {
    const step = this.history.undo();
    if (!step) return;
    this.requestUpdate();
    this.apply(step.data);
    announce(this, `Undone: ${step.label}.`);
  }

  private redo() {
    const step = this.history.redo();
    if (!step) return;
    this.requestUpdate();
    this.apply(step.data);
    announce(this, `Redone: ${step.label}.`);
  }

  /** Ctrl/Cmd+Z, Shift+Ctrl/Cmd+Z and Ctrl+Y; inside a text field the browser's own undo keeps the keys. */
  private shortcut(event: KeyboardEvent) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key !== 'z' && key !== 'y') return;
    if (isTextEntry(event.composedPath()[0])) return;
    if (this.conflictDialog?.open || this.leaveDialog?.open) return;
    event.preventDefault();
    if (key === 'y' || event.shiftKey) this.redo();
    else this.undo();
  }

  private schedulePreview(delay: number) {
    clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => void this.refreshPreview(), delay);
  }

  /** POST /projects/:id/preview with the draft; an answer older than the latest asked is dropped. */
  private async refreshPreview() {
    const data = this.data;
    if (!data) return;
    const seq = ++this.previewSeq;
    try {
      const reply = await this.api.preview(this.projectId, data);
      if (seq !== this.previewSeq) return;
      this.warnings = reply.warnings ?? [];
      this.previewNote = '';
      await loadElement();
      this.previewShown = true;
      await this.updateComplete;
      if (this.previewElement) this.previewElement.preview = reply.payload;
      this.previewedData = data;
    } catch (error) {
      if (seq !== this.previewSeq) return;
      this.previewNote =
        error instanceof ApiError && error.status === 404 && /^Route /.test(error.message)
          ? 'This API has no preview route (POST /projects/:id/preview): save to see edits.'
          : `The preview could not be built: ${errorText(error)}`;
    }
  }

  /** The Look panel's "Use this view": the preview's camera becomes `data.camera`, as one edit. */
  private useView() {
    const view = this.previewElement?.getCameraView?.();
    if (!view || !this.data) {
      announce(this, 'The preview has no camera view to use yet (wait for it to show the model).', 'error');
      return;
    }
    this.onEdit(
      new CustomEvent(EDIT_EVENT, {
        detail: { data: { ...this.data, camera: { ...view } }, label: 'Use this view' },
      }),
    );
    announce(this, 'The preview’s view is the starting camera (save to keep it).');
  }

  /** Each model entry's outline, read once per asset; entries without an asset have none. */
  private async loadOutlines(data: ProjectDataDraft) {
    const entries = data.models.filter(
      (m): m is { id: string; assetId: string } => typeof m.id === 'string' && typeof m.assetId === 'string',
    );
    const pairs = await Promise.all(
      entries.map(async (m) => {
        let outline = this.outlinesByAsset.get(m.assetId);
        if (!outline) {
          outline = this.api.outline(m.assetId).catch(() => undefined);
          this.outlinesByAsset.set(m.assetId, outline);
        }
        return [m.id, await outline] as const;
      }),
    );
    const next = Object.fromEntries(pairs);
    if (!same(next, this.outlines)) this.outlines = next;
  }

  private async save(ifMatch: string | undefined = this.etag) {
    if (!this.data || this.saving) return;
    this.saving = true;
    const data = this.data;
    const name = this.name;
    try {
      const reply = await this.api.putProject(this.projectId, { name, type: this.type, data }, ifMatch);
      this.saved = { name, data };
      this.revision = reply.project.revision;
      this.etag = `"r${reply.project.revision}"`;
      this.warnings = reply.warnings ?? this.warnings;
      this.dispatchEvent(new CustomEvent('project-saved', { detail: reply.project, bubbles: true, composed: true }));
      const count = this.warnings.length;
      announce(this, `Saved as revision ${this.revision}${count ? `, with ${count} warning(s)` : ''}.`);
      void this.storeThumbnail(data);
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        this.conflictRevision = Number(error.body.currentRevision) || undefined;
        this.conflictDialog.showModal();
        announce(this, 'Not saved: someone else saved this project meanwhile.', 'error');
      } else announce(this, `Save failed: ${errorText(error)}`, 'error');
    } finally {
      this.saving = false;
    }
  }

  private onPreviewRendered() {
    this.drawnData = this.previewedData;
    for (const waiter of this.drawWaiters) waiter();
  }

  /** True once the preview has drawn `data`; false when it has not within `ms` (a newer edit, a model that fails). */
  private previewDrawn(data: ProjectDataDraft, ms = 20_000): Promise<boolean> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.drawnData === data) done(true);
      };
      const done = (drawn: boolean) => {
        clearTimeout(timer);
        this.drawWaiters.delete(check);
        resolve(drawn);
      };
      const timer = setTimeout(() => done(false), ms);
      this.drawWaiters.add(check);
      check();
    });
  }

  /** The project card's picture of the preview as saved; a failure leaves the card as it was and says nothing. */
  private async storeThumbnail(data: ProjectDataDraft) {
    try {
      if (data.models.length === 0 || !(await this.previewDrawn(data))) return;
      const screenshot = await this.previewElement?.screenshot?.();
      const image = screenshot ? await thumbnailFrom(screenshot) : null;
      if (!image) return;
      await this.api.putThumbnail(this.projectId, image);
      this.dispatchEvent(new CustomEvent('projects-changed', { bubbles: true, composed: true }));
    } catch {
      // The card keeps its previous picture; the next save tries again.
    }
  }

  /** The conflict dialog's answer: load theirs and lay this session's changes on top, or overwrite theirs. */
  private async onConflictClose() {
    const answer = this.conflictDialog.returnValue;
    this.conflictDialog.returnValue = '';
    if (answer === 'overwrite') {
      const current = this.conflictRevision;
      return this.save(current ? `"r${current}"` : undefined);
    }
    if (answer !== 'reapply' || !this.saved || !this.data) return announce(this, 'Your edits are kept, unsaved.');
    try {
      const { project, etag } = await this.api.project(this.projectId);
      const theirs = draftOf(project.data);
      const merged = reapplyEdits(this.saved.data, this.data, theirs);
      const name = this.name !== this.saved.name ? this.name : project.name;
      this.adopt(project.name, project.type, theirs, project.revision, etag);
      // One step from theirs to the merge: undo shows their revision as it is.
      this.history.clear();
      this.history.record(theirs, merged, 'Re-apply my edits');
      this.requestUpdate();
      this.name = name;
      this.apply(merged);
      announce(this, `Loaded revision ${project.revision} and re-applied your edits: check them, then save.`);
    } catch (error) {
      announce(this, `Could not load the newer revision: ${errorText(error)}`, 'error');
    }
  }

  /** Restore from the history panel: saved as a new revision with If-Match, then the draft is reloaded. */
  private async restore(revision: number) {
    if (this.dirty && !(await this.confirmLeave())) return;
    try {
      const reply = await this.api.restoreRevision(this.projectId, revision, this.etag);
      this.dispatchEvent(new CustomEvent('project-saved', { detail: reply.project, bubbles: true, composed: true }));
      await this.load();
      announce(this, `Revision ${revision} restored as revision ${reply.project.revision}.`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        announce(this, 'Someone else saved meanwhile: the history shows their revision now; restore again.', 'error');
        await this.load();
      } else announce(this, `Restore failed: ${errorText(error)}`, 'error');
    }
  }

  private rename(event: Event) {
    this.name = (event.target as HTMLInputElement).value;
  }

  override render() {
    if (!this.data) return html`<p class="muted">Opening the project…</p>`;
    const undoLabel = this.history.undoLabel;
    const redoLabel = this.history.redoLabel;
    const dirty = this.dirty;
    return html`
      <div class="topbar">
        <label class="name-field"
          ><span class="visually-hidden">Project name</span
          ><input id="project-name" type="text" maxlength="200" .value=${this.name} @input=${this.rename}
        /></label>
        <span class="muted">Revision ${this.revision}</span>
        <span class="save-state ${dirty ? 'dirty' : 'clean'}" id="save-state"
          >${dirty ? 'Unsaved changes' : 'All changes saved'}</span>
        <span class="spacer"></span>
        <button
          ?disabled=${!undoLabel}
          title=${undoLabel ? `Undo: ${undoLabel} (Ctrl+Z)` : 'Nothing to undo'}
          @click=${this.undo}
        >Undo</button>
        <button
          ?disabled=${!redoLabel}
          title=${redoLabel ? `Redo: ${redoLabel} (Shift+Ctrl+Z)` : 'Nothing to redo'}
          @click=${this.redo}
        >Redo</button>
        <button class="primary" ?disabled=${!dirty || this.saving} @click=${() => this.save()}
          >${this.saving ? 'Saving…' : 'Save'}</button>
      </div>
      <div class="editor">
        <nav aria-label="Editor sections" class="sections">
          ${this.renderSectionGroup('build', 'Build')} ${this.renderSectionGroup('run', 'Run')}
        </nav>
        <main class="panel" aria-labelledby="section-title">${this.renderSection()}</main>
        <aside class="preview" aria-label="Live preview">
          <div class="preview-frame">
            ${
              this.previewShown
                ? html`<config-share
                    id="live-preview"
                    events="off"
                    @config-share-rendered=${this.onPreviewRendered}
                  ></config-share>`
                : html`<p class="muted placeholder">The live preview of your unsaved edits shows here.</p>`
            }
          </div>
          ${this.previewNote ? html`<p class="muted note">${this.previewNote}</p>` : nothing}
          ${this.renderWarnings()}
        </aside>
      </div>
      ${this.renderDialogs()}
    `;
  }

  private renderSectionGroup(group: 'build' | 'run', title: string) {
    return html`<h3 class="group">${title}</h3>
      <ul>
        ${SECTIONS.filter((s) => s.group === group).map(
          (s) =>
            html`<li><button
              aria-current=${this.section === s.id ? 'page' : 'false'}
              @click=${() => (this.section = s.id)}
            >${s.label}${this.sectionWarnings(s.id)}</button></li>`,
        )}
      </ul>`;
  }

  /** A count of the warnings under a section's part of `data`, next to its name. */
  private sectionWarnings(section: Section) {
    const prefixes: Partial<Record<Section, string[]>> = {
      models: ['models'],
      options: ['sceneData.optionBlocks', 'sceneData.rules'],
      price: ['sceneData.pricing', 'sceneData.pricingBlocks', 'sceneData.priceFormula'],
      form: ['sceneData.formFields'],
      animations: ['sceneData.animationBlocks'],
      look: ['sceneData.projectSettings', 'camera', 'renderQuality'],
    };
    const count = this.warnings.filter((w) =>
      (prefixes[section] ?? []).some((p) => w.path === p || w.path.startsWith(`${p}.`)),
    ).length;
    return count ? html` <span class="count" aria-label=${`${count} warning(s)`}>${count}</span>` : nothing;
  }

  private renderSection() {
    const section = SECTIONS.find((s) => s.id === this.section)!;
    const title = html`<h2 id="section-title">${section.label}</h2>`;
    const id = this.projectId;
    switch (section.id) {
      case 'models':
        return html`${title}<editor-models-panel
          .api=${this.api}
          .data=${this.data}
          .outlines=${this.outlines}
          .warnings=${this.warnings}
        ></editor-models-panel>`;
      case 'history':
        return html`${title}<editor-history-panel .api=${this.api} .projectId=${id} .revision=${this.revision}
          ></editor-history-panel>`;
      case 'share':
        return html`${title}<share-panel .api=${this.api} .projectId=${id}></share-panel>`;
      case 'requests':
        return html`${title}<requests-panel .api=${this.api} .projectId=${id}></requests-panel>`;
      case 'configurations':
        return html`${title}<configurations-panel .api=${this.api} .projectId=${id}></configurations-panel>`;
      case 'webhooks':
        return html`${title}<webhooks-panel .api=${this.api} .projectId=${id}></webhooks-panel>`;
      case 'analytics':
        return html`${title}<analytics-panel .api=${this.api} .projectId=${id}></analytics-panel>`;
      case 'scene':
        return html`${title}<scene-report-panel .api=${this.api} .projectId=${id}></scene-report-panel>`;
      default:
        return html`${title}${this.renderContentPanel(section.tag!)}${
          section.id === 'price' ? this.renderContentPanel('editor-price-list') : nothing
        }`;
    }
  }

  /** A content panel by its tag, with the three properties every panel takes (editor-types.ts). */
  private renderContentPanel(tagName: string) {
    const tag = unsafeStatic(tagName);
    return staticHtml`<${tag} .data=${this.data} .outlines=${this.outlines} .warnings=${this.warnings}></${tag}>`;
  }

  private renderWarnings() {
    const warnings = this.warnings;
    if (!warnings.length) return html`<p class="muted" id="warnings-none">No warnings about this scene.</p>`;
    const shown = warnings.slice(0, 50);
    return html`<details class="warnings" open>
      <summary>${warnings.length} warning(s)</summary>
      <ul id="warnings-list">
        ${shown.map((w) => html`<li><code>${w.path}</code> ${w.message}</li>`)}
      </ul>
      ${
        warnings.length > shown.length ? html`<p class="muted">and ${warnings.length - shown.length} more</p>` : nothing
      }
    </details>`;
  }

  private renderDialogs() {
    return html`
      <dialog id="conflict-dialog" aria-labelledby="conflict-title" @close=${this.onConflictClose}>
        <h3 id="conflict-title">Someone else saved this project</h3>
        <p>
          Revision ${this.conflictRevision ?? 'newer'} was saved while you edited. Your edits are kept, unsaved.
          Load their revision and re-apply your edits on top (where both changed the same part, yours wins), or
          overwrite their revision with yours.
        </p>
        <form method="dialog">
          <button class="primary" value="reapply" autofocus>Load theirs and re-apply my edits</button>
          <button class="danger" value="overwrite">Overwrite</button>
          <button value="cancel">Cancel</button>
        </form>
      </dialog>
      <dialog id="leave-dialog" aria-labelledby="leave-title">
        <h3 id="leave-title">Leave without saving?</h3>
        <p>This project has unsaved changes. They are lost if you leave now.</p>
        <form method="dialog">
          <button class="danger" value="leave">Leave without saving</button>
          <button value="stay" autofocus>Stay</button>
        </form>
      </dialog>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'project-editor': ProjectEditor;
  }
}
