import { LitElement, html, css, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { ApiError, createApi, type Api, type Me, type ProjectSummary } from './api.js';
import { errorText, panelStyles } from './styles.js';
import './library-panel.js';
import './project-list.js';
import './editor/project-editor.js';

const TOKEN_KEY = 'config-share-console.token';
const API_KEY = 'config-share-console.api';
const WORKSPACE_KEY = 'config-share-console.workspace';

/** The owner console's shell: sign-in, workspace, project and panel, and one live region for every panel's status. */
@customElement('owner-console')
export class OwnerConsole extends LitElement {
  static override styles = [
    panelStyles,
    css`
      :host {
        font: 16px/1.45 system-ui, sans-serif; color: #111; max-width: 110rem; margin: 0 auto; padding: 0 1rem 4rem;
      }
      header {
        display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between;
        border-bottom: 2px solid #224; padding: 0.6rem 0;
      }
      header h1 { font-size: 1.3rem; margin: 0; }
      nav ul { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.3rem; }
      button[aria-pressed='true'], button[aria-current='true'] { background: #224; color: #fff; }
      #status { min-height: 1.5rem; margin: 0.5rem 0; padding: 0.3rem 0.5rem; border-left: 4px solid transparent; }
      #status.info { border-color: #36a; background: #eef3ff; }
      #status.error { border-color: #a00; background: #fff0f0; }
      nav.sections { display: flex; gap: 0.6rem; align-items: center; margin: 0.5rem 0; }
    `,
  ];

  @state() private apiBase = '';
  @state() private token = '';
  @state() private workspaceId = '';
  @state() private me?: Me;
  @state() private projects: ProjectSummary[] = [];
  @state() private projectId = '';
  /** Each listed project's share state, read alongside the list (true: on). */
  @state() private shareStates: Record<string, boolean | undefined> = {};
  @state() private section: 'projects' | 'library' = 'projects';
  @state() private status = { message: '', kind: 'info' as 'info' | 'error' };
  private api?: Api;

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener('console-status', (event) => {
      this.status = (event as CustomEvent<{ message: string; kind: 'info' | 'error' }>).detail;
    });
    this.addEventListener('project-open', (event) => void this.open((event as CustomEvent<string>).detail));
    this.addEventListener('projects-changed', (event) => {
      const openId = (event as CustomEvent<string | undefined>).detail;
      void this.readProjects().then(() => (openId ? this.open(openId) : undefined));
    });
    this.addEventListener('project-saved', () => void this.readProjects());
    this.addEventListener('share-changed', (event) => {
      const { projectId, isEnabled } = (event as CustomEvent<{ projectId: string; isEnabled: boolean }>).detail;
      this.shareStates = { ...this.shareStates, [projectId]: isEnabled };
    });
    // The fragment never reaches a server log; a hand-made ?token= is taken too. The address bar keeps
    // neither, so no bookmark, history or copy holds the token.
    const fragment = new URLSearchParams(location.hash.slice(1));
    const query = new URLSearchParams(location.search);
    const fromLink = fragment.get('token') || query.get('token');
    if (fromLink) {
      sessionStorage.setItem(TOKEN_KEY, fromLink);
      sessionStorage.removeItem(WORKSPACE_KEY);
    }
    if (fragment.has('token') || query.has('token')) {
      query.delete('token');
      const rest = query.toString();
      history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : ''));
    }
    this.token = sessionStorage.getItem(TOKEN_KEY) ?? '';
    this.workspaceId = sessionStorage.getItem(WORKSPACE_KEY) ?? '';
    // Back from the library_b sign-in (DASHBOARD_URL?status=...): the library panel says how it went.
    if (new URLSearchParams(location.search).has('status')) this.section = 'library';
    void this.start(fragment.get('api'));
  }

  private async start(apiFromLink: string | null) {
    this.apiBase = apiFromLink ?? sessionStorage.getItem(API_KEY) ?? (await this.defaultApiBase());
    if (this.token) await this.signIn();
  }

  /** The BFF says where the API is (its upstream); a pasted URL wins. */
  private async defaultApiBase(): Promise<string> {
    try {
      const res = await fetch(new URL('config.json', location.href));
      const body = (await res.json()) as { apiBase?: string };
      return body.apiBase ?? '';
    } catch {
      return '';
    }
  }

  private say(message: string, kind: 'info' | 'error' = 'info') {
    this.status = { message, kind };
  }

  private async signIn(): Promise<void> {
    this.api = createApi({
      apiBase: this.apiBase.replace(/\/$/, ''),
      token: this.token,
      workspaceId: this.workspaceId || undefined,
    });
    try {
      const me = await this.api.me();
      const { projects } = await this.api.projects();
      // Said before the panels appear, so what they announce on arrival is not overwritten.
      this.say(`Signed in as ${me.person.email ?? me.person.id}. ${projects.length} project(s) in this workspace.`);
      if (!this.workspaceId) this.workspaceId = me.workspace.id;
      this.projects = projects;
      if (!projects.some((p) => p.id === this.projectId)) this.projectId = '';
      this.me = me;
      void this.readShareStates(projects);
    } catch (error) {
      // A workspace remembered from another token: fall back to the person's default one.
      if (error instanceof ApiError && error.status === 403 && this.workspaceId) {
        this.workspaceId = '';
        sessionStorage.removeItem(WORKSPACE_KEY);
        return this.signIn();
      }
      this.me = undefined;
      this.say(`Sign-in failed: ${errorText(error)}`, 'error');
    }
  }

  private async readProjects() {
    try {
      const { projects } = await this.api!.projects();
      this.projects = projects;
    } catch (error) {
      this.say(`Could not read the projects: ${errorText(error)}`, 'error');
    }
  }

  /** Unsaved edits in the open editor are confirmed before anything replaces it. */
  private async mayLeave(): Promise<boolean> {
    const editor = this.renderRoot.querySelector('project-editor');
    return !editor || (await editor.confirmLeave());
  }

  private async goTo(section: 'projects' | 'library', keepProject = false) {
    if (!(await this.mayLeave())) return;
    if (!keepProject) this.projectId = '';
    this.section = section;
  }

  private async readShareStates(projects: ProjectSummary[]) {
    const api = this.api!;
    const states = await Promise.all(
      projects.map((p) =>
        api.share(p.id).then(
          (s) => s.isEnabled,
          () => undefined,
        ),
      ),
    );
    this.shareStates = Object.fromEntries(projects.map((p, i) => [p.id, states[i]]));
  }

  private async onPaste(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    this.token = String(form.get('token') ?? '')
      .trim()
      .replace(/^Bearer\s+/i, '');
    this.apiBase = String(form.get('api') ?? '').trim();
    sessionStorage.setItem(TOKEN_KEY, this.token);
    sessionStorage.setItem(API_KEY, this.apiBase);
    sessionStorage.removeItem(WORKSPACE_KEY);
    this.workspaceId = '';
    await this.signIn();
  }

  private async signOut() {
    if (!(await this.mayLeave())) return;
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(WORKSPACE_KEY);
    this.token = '';
    this.workspaceId = '';
    this.me = undefined;
    this.api = undefined;
    this.projects = [];
    this.projectId = '';
    this.say('Signed out. The token is removed from this tab.');
  }

  private async switchWorkspace(event: Event) {
    const select = event.target as HTMLSelectElement;
    if (!(await this.mayLeave())) {
      select.value = this.workspaceId;
      return;
    }
    this.workspaceId = select.value;
    sessionStorage.setItem(WORKSPACE_KEY, this.workspaceId);
    this.projectId = '';
    await this.signIn();
  }

  override render() {
    return html`
      <header>
        <h1>config-share owner console</h1>
        ${this.me ? this.renderAccount() : nothing}
      </header>
      <div id="status" role="status" aria-live="polite" class=${this.status.message ? this.status.kind : ''}
        >${this.status.message}</div>
      ${this.me && this.api ? this.renderSignedIn(this.api) : this.renderSignIn()}
    `;
  }

  private renderAccount() {
    const me = this.me!;
    return html`<div class="row">
      <span>${me.person.email ?? me.person.id}</span>
      <span>
        <label for="workspace" style="display:inline;margin-right:0.3rem">Workspace</label>
        <select id="workspace" @change=${this.switchWorkspace}>
          ${me.workspaces.map(
            (w) =>
              html`<option value=${w.id} ?selected=${w.id === this.workspaceId}
                >${w.name} (${w.role}${w.billingStatus === 'locked' ? ', billing locked' : ''})</option>`,
          )}
        </select>
      </span>
      <button @click=${this.signOut}>Sign out</button>
    </div>`;
  }

  private renderSignIn() {
    return html`<form @submit=${this.onPaste} aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in</h2>
      <p class="muted">Open the link <code>npm start</code> prints, or paste an access token (<code
        >npm run -s token -- --email you@example.com</code>).</p>
      <label for="token">Access token</label>
      <textarea id="token" name="token" required autocomplete="off" spellcheck="false"></textarea>
      <label for="api">API base URL</label>
      <input id="api" name="api" type="url" required .value=${this.apiBase} />
      <p><button class="primary" type="submit">Sign in</button></p>
    </form>`;
  }

  private renderSignedIn(api: Api) {
    const project = this.projects.find((p) => p.id === this.projectId);
    return html`
      <nav aria-label="Sections" class="sections">
        <button aria-current=${this.section === 'projects' && !project} @click=${() => this.goTo('projects')}
          >${project ? '← All projects' : 'Projects'}</button>
        <button aria-current=${this.section === 'library'} @click=${() => this.goTo('library')}>Library</button>
      </nav>
      ${
        this.section === 'library'
          ? html`<library-panel .api=${api} .projects=${this.projects}></library-panel>`
          : project
            ? html`<project-editor .api=${api} .projectId=${project.id}></project-editor>`
            : html`<project-list .api=${api} .projects=${this.projects} .shareStates=${this.shareStates}
              ></project-list>`
      }
    `;
  }

  private async open(id: string) {
    if (id !== this.projectId && !(await this.mayLeave())) return;
    this.section = 'projects';
    this.projectId = id;
    // Keyboard and screen reader users land on what they opened.
    await this.updateComplete;
    const editor = this.renderRoot.querySelector('project-editor');
    await editor?.updateComplete;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'owner-console': OwnerConsole;
  }
}
