import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { Api, ProjectSummary } from './api.js';
import { initials } from './editor/initials.js';
import { cssomStyle } from './cssom-style.js';
import { announce, errorText, panelStyles } from './styles.js';

/** A placeholder's colour from the name, so each project keeps its own. */
function hue(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

const gradientOf = (h: number) => `linear-gradient(135deg,hsl(${h} 45% 42%),hsl(${(h + 40) % 360} 50% 58%))`;

/**
 * The workspace's projects as cards (the picture saved with the project, else its initials): open, create (name,
 * type), rename, duplicate and delete behind a confirmation.
 * Fires `project-open` with the id and `projects-changed` after each change, so the console reads the list again.
 */
@customElement('project-list')
export class ProjectList extends LitElement {
  static override styles = [
    panelStyles,
    css`
      .grid {
        list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr));
        gap: 1rem;
      }
      .card { margin: 0; padding: 0; overflow: hidden; display: flex; flex-direction: column; }
      .open {
        display: block; width: 100%; margin: 0; padding: 0; border: 0; border-radius: 0; background: none;
        text-align: left;
      }
      .thumb {
        height: 7.5rem; display: grid; place-items: center; font-size: 2.2rem; font-weight: 700; color: #fff;
        letter-spacing: 0.05em;
      }
      .open .title { display: block; padding: 0.5rem 0.7rem 0; font-weight: 600; }
      .meta { padding: 0 0.7rem; font-size: 0.85rem; }
      .actions { padding: 0.3rem 0.5rem 0.5rem; margin-top: auto; }
      .actions button { font-size: 0.85rem; padding: 0.2rem 0.5rem; }
      img.thumb { width: 100%; object-fit: cover; background: #eef0f3; }
      .open:hover .thumb { filter: brightness(1.08); }
      dialog form { margin: 0; }
    `,
  ];

  @property({ attribute: false }) api!: Api;
  @property({ attribute: false }) projects: ProjectSummary[] = [];
  @property({ attribute: false }) shareStates: Record<string, boolean | undefined> = {};
  @state() private target?: ProjectSummary;
  @state() private busy = false;
  @query('#create-dialog') private createDialog!: HTMLDialogElement;
  @query('#rename-dialog') private renameDialog!: HTMLDialogElement;
  @query('#delete-dialog') private deleteDialog!: HTMLDialogElement;

  private changed(openId?: string) {
    this.dispatchEvent(new CustomEvent('projects-changed', { detail: openId, bubbles: true, composed: true }));
  }

  private open(id: string) {
    this.dispatchEvent(new CustomEvent('project-open', { detail: id, bubbles: true, composed: true }));
  }

  private async run(what: string, action: () => Promise<string | undefined>) {
    this.busy = true;
    try {
      const openId = await action();
      announce(this, what);
      this.changed(openId);
    } catch (error) {
      announce(this, `${what.replace(/\.$/, '')} failed: ${errorText(error)}`, 'error');
    } finally {
      this.busy = false;
    }
  }

  private async create(event: SubmitEvent) {
    const form = new FormData(event.target as HTMLFormElement);
    if (event.submitter?.getAttribute('value') !== 'create') return;
    const name = String(form.get('name') ?? '').trim();
    const type = String(form.get('type') ?? 'configurator');
    if (!name) return;
    await this.run(`Project ${name} created.`, async () => {
      const { project } = await this.api.createProject({
        name,
        type,
        data: { models: [], sceneData: {}, renderQuality: 'optimised', saveConfigEnabled: false },
      });
      return project.id;
    });
  }

  private async rename(event: SubmitEvent) {
    const target = this.target;
    if (!target || event.submitter?.getAttribute('value') !== 'rename') return;
    const name = String(new FormData(event.target as HTMLFormElement).get('name') ?? '').trim();
    if (!name || name === target.name) return;
    await this.run(`Renamed to ${name}.`, async () => {
      const { project, etag } = await this.api.project(target.id);
      await this.api.putProject(target.id, { name, type: project.type, data: project.data }, etag);
      return undefined;
    });
  }

  private async duplicate(source: ProjectSummary) {
    await this.run(`${source.name} copy created.`, async () => {
      const { project } = await this.api.project(source.id);
      const { project: copy } = await this.api.createProject({
        name: `${project.name} copy`.slice(0, 200),
        type: project.type,
        data: project.data,
      });
      if (project.thumbnailUrl) await this.copyThumbnail(project.thumbnailUrl, copy.id);
      return undefined;
    });
  }

  /** The copy gets the original's picture; without it, the copy shows its initials until its first save. */
  private async copyThumbnail(url: string, projectId: string) {
    try {
      const blob = await (await fetch(url)).blob();
      const image = await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
        reader.readAsDataURL(blob);
      });
      await this.api.putThumbnail(projectId, image);
    } catch {
      // The project is copied; only its picture is missing.
    }
  }

  private async removeConfirmed() {
    const target = this.target;
    if (!target || this.deleteDialog.returnValue !== 'delete') return;
    await this.run(`${target.name} deleted.`, async () => {
      await this.api.deleteProject(target.id);
      return undefined;
    });
  }

  private ask(dialog: HTMLDialogElement, project?: ProjectSummary) {
    this.target = project;
    dialog.returnValue = '';
    dialog.showModal();
  }

  override render() {
    return html`
      <div class="row" style="justify-content:space-between;align-items:center">
        <h2 id="projects-title" style="margin:0">Projects</h2>
        <button class="primary" ?disabled=${this.busy} @click=${() => this.ask(this.createDialog)}
          >New project…</button>
      </div>
      ${
        this.projects.length === 0
          ? html`<div class="card" style="padding:1rem;margin-top:1rem">
              <p><strong>No projects yet.</strong> A project is one product's configurator: its models, options,
                prices and form. Create one, add a model, then give it options.</p>
              <button class="primary" @click=${() => this.ask(this.createDialog)}>Create your first project</button>
            </div>`
          : nothing
      }
      <ul class="grid" aria-labelledby="projects-title">
        ${this.projects.map((p) => this.renderCard(p))}
      </ul>
      ${this.renderDialogs()}
    `;
  }

  private renderCard(p: ProjectSummary) {
    const shared = this.shareStates[p.id];
    const h = hue(p.name);
    return html`<li class="card">
      <button class="open" @click=${() => this.open(p.id)}>
        ${
          p.thumbnailUrl
            ? html`<img class="thumb" src=${p.thumbnailUrl} alt="" loading="lazy" />`
            : html`<span
                class="thumb"
                aria-hidden="true"
                ${cssomStyle({ background: gradientOf(h) })}
                >${initials(p.name)}</span
              >`
        }
        <span class="title" id=${`project-${p.id}`}>${p.name}</span>
      </button>
      <span class="meta muted">${p.type} · ${p.modelCount} model(s) · revision ${p.revision}${
        shared === undefined ? '' : shared ? ' · shared' : ' · not shared'
      }</span>
      <span class="actions">
        <button aria-describedby=${`project-${p.id}`} ?disabled=${this.busy}
          @click=${() => this.ask(this.renameDialog, p)}>Rename…</button>
        <button aria-describedby=${`project-${p.id}`} ?disabled=${this.busy} @click=${() => this.duplicate(p)}
          >Duplicate</button>
        <button class="danger" aria-describedby=${`project-${p.id}`} ?disabled=${this.busy}
          @click=${() => this.ask(this.deleteDialog, p)}>Delete…</button>
      </span>
    </li>`;
  }

  private renderDialogs() {
    const target = this.target;
    return html`
      <dialog id="create-dialog" aria-labelledby="create-title">
        <form method="dialog" @submit=${this.create}>
          <h3 id="create-title">New project</h3>
          <label for="new-name">Name</label>
          <input id="new-name" name="name" type="text" required maxlength="200" autocomplete="off" />
          <label for="new-type">Type</label>
          <select id="new-type" name="type">
            <option value="configurator">Configurator</option>
            <option value="viewer">Viewer</option>
          </select>
          <p><button class="primary" value="create">Create</button>
            <button value="cancel" formnovalidate>Cancel</button></p>
        </form>
      </dialog>
      <dialog id="rename-dialog" aria-labelledby="rename-title">
        <form method="dialog" @submit=${this.rename}>
          <h3 id="rename-title">Rename ${target?.name ?? ''}</h3>
          <label for="rename-name">New name</label>
          <input id="rename-name" name="name" type="text" required maxlength="200" .value=${target?.name ?? ''} />
          <p><button class="primary" value="rename">Rename</button>
            <button value="cancel" formnovalidate>Cancel</button></p>
        </form>
      </dialog>
      <dialog id="delete-dialog" aria-labelledby="delete-title" @close=${this.removeConfirmed}>
        <h3 id="delete-title">Delete ${target?.name ?? ''}?</h3>
        <p>The project, its share link, embeds, requests and webhooks go with it. This cannot be undone.</p>
        <form method="dialog">
          <button class="danger" value="delete">Delete project</button>
          <button value="cancel" autofocus>Cancel</button>
        </form>
      </dialog>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'project-list': ProjectList;
  }
}
