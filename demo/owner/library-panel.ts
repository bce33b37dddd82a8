import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type {
  Api,
  ImportJob,
  LibraryDescription,
  LibraryItem,
  ProjectSummary,
  SearchFilters,
  SearchResult,
} from './api.js';
import { newModelEntry } from './editor/model-entry.js';
import { announce, errorText, panelStyles } from './styles.js';
import { LICENSE_FILTER_WORDS, LICENSE_TIER_WORDS, searchStatusWords } from './library-words.js';

const POLL_MS = 500;
/** The delivery file takes seconds to minutes after the import: polled every 2 s for up to 5 minutes. */
const DELIVERY_POLL_MS = 2000;
const DELIVERY_POLLS = 150;
const READINESS_COLUMNS = ['Check', 'Result', 'Value', 'Limit', 'Note'];

/** The library panel: search, an item's licence and credit, an import up to its readiness, library_b's account. */
@customElement('library-panel')
export class LibraryPanel extends LitElement {
  static override styles = panelStyles;

  @property({ attribute: false }) api!: Api;
  /** The workspace's projects, for "Add to project". */
  @property({ attribute: false }) projects: ProjectSummary[] = [];
  @state() private libraries: LibraryDescription[] = [];
  @state() private categories: Array<{ id: string; label: string }> = [];
  @state() private result?: SearchResult;
  @state() private filters?: SearchFilters;
  @state() private detail?: {
    asset: LibraryItem;
    alreadyImported: { assetId: string } | null;
    provider: { name: string; credit: string; homepage: string };
  };
  @state() private job?: ImportJob;
  @state() private reusedAssetId = '';
  @state() private connection?: { available: boolean; connected: boolean };
  @state() private busy = false;
  private polling?: ReturnType<typeof setTimeout>;

  /** A library as people call it (the providers list's `name`), never its wire id. */
  private libraryName(id: string): string {
    return this.libraries.find((l) => l.id === id)?.name ?? 'the library';
  }

  /** The server's messages name libraries by their wire ids; the console says their names. */
  private named(text: string): string {
    return text.replace(/\blibrary_[abc]\b/g, (id) => this.libraryName(id));
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.loadLibraries().then(() => {
      // The library_b authorize flow comes back to DASHBOARD_URL with ?status=connected|error.
      const status = new URLSearchParams(location.search).get('status');
      if (status)
        announce(
          this,
          status === 'connected'
            ? `Your ${this.libraryName('library_b')} account is connected.`
            : `Connecting your ${this.libraryName('library_b')} account failed.`,
          status === 'connected' ? 'info' : 'error',
        );
    });
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.polling);
  }

  private async loadLibraries() {
    try {
      const { providers, categories } = await this.api.libraries();
      this.libraries = providers;
      this.categories = categories;
      this.connection = await this.api.libraryBConnection();
    } catch (error) {
      announce(this, `Could not read the libraries: ${this.named(errorText(error))}`, 'error');
    }
  }

  private async search(event?: SubmitEvent) {
    event?.preventDefault();
    let filters = this.filters;
    if (event) {
      const form = new FormData(event.target as HTMLFormElement);
      const text = (name: string) => String(form.get(name) ?? '') || undefined;
      filters = {
        q: String(form.get('q') ?? ''),
        providers: this.libraries.map((l) => l.id).filter((id) => form.get(`provider:${id}`) === 'on'),
        category: text('category'),
        license: text('license'),
        commercial: form.get('commercial') === 'on' ? '1' : '0',
        format: text('format'),
        maxPolygons: text('maxPolygons'),
      };
    }
    if (!filters) return;
    const cursor = event ? undefined : (this.result?.nextCursor ?? undefined);
    this.busy = true;
    try {
      const page = await this.api.search({ ...filters, cursor });
      this.filters = filters;
      this.result = cursor && this.result ? { ...page, items: [...this.result.items, ...page.items] } : page;
      const statuses = page.providers.map((p) => `${this.libraryName(p.provider)}: ${searchStatusWords(p)}`);
      announce(this, `${this.result.items.length} model(s) found. ${statuses.join(', ')}.`);
    } catch (error) {
      announce(this, `Search failed: ${this.named(errorText(error))}`, 'error');
    } finally {
      this.busy = false;
    }
  }

  private async openItem(item: LibraryItem) {
    try {
      this.detail = await this.api.item(item.provider, item.providerAssetId);
      this.job = undefined;
      this.reusedAssetId = '';
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#item-title')?.focus();
    } catch (error) {
      announce(this, `Could not read the model: ${this.named(errorText(error))}`, 'error');
    }
  }

  private async startImport(event: SubmitEvent) {
    event.preventDefault();
    const asset = this.detail!.asset;
    const acknowledge = new FormData(event.target as HTMLFormElement).get('acknowledge') === 'on';
    this.busy = true;
    try {
      const started = await this.api.startImport(asset.provider, asset.providerAssetId, acknowledge);
      if ('job' in started) {
        this.job = started.job;
        announce(this, `Import started: ${started.job.stage || started.job.status}.`);
        this.poll(started.job.id);
      } else if (started.reused) {
        this.reusedAssetId = started.assetId;
        announce(this, `This model is already in the workspace library (asset ${started.assetId}).`);
      }
    } catch (error) {
      announce(this, `Import refused: ${this.named(errorText(error))}`, 'error');
    } finally {
      this.busy = false;
    }
  }

  /** Polls the import until it ends, then quietly until its readiness report has the delivery file's line. */
  private poll(jobId: string, afterMs = POLL_MS, deliveryPolls = 0) {
    clearTimeout(this.polling);
    this.polling = setTimeout(async () => {
      const wasDone = this.job?.id === jobId && this.job.status === 'completed';
      try {
        this.job = await this.api.importJob(jobId);
      } catch (error) {
        announce(this, `Could not read the import: ${this.named(errorText(error))}`, 'error');
      }
      const job = this.job;
      if (job?.status === 'completed') {
        if (!wasDone)
          announce(
            this,
            `Import done: asset ${job.assetId}, ` +
              `readiness ${job.readiness?.score ?? '?'} (${job.readiness?.level ?? 'unknown'}).`,
          );
        const delivered = job.readiness?.checks.some((check) => check.id === 'delivery');
        if (!delivered && deliveryPolls < DELIVERY_POLLS) this.poll(jobId, DELIVERY_POLL_MS, deliveryPolls + 1);
      } else if (job?.status === 'failed')
        announce(
          this,
          `Import failed: ${this.named(job.error?.message ?? 'unknown error')} (${job.error?.code ?? ''}).`,
          'error',
        );
      else this.poll(jobId);
    }, afterMs);
  }

  private async connect() {
    try {
      const { url } = await this.api.connectLibraryB();
      announce(this, `Opening the ${this.libraryName('library_b')} sign-in…`);
      location.assign(url);
    } catch (error) {
      announce(this, `Connecting failed: ${this.named(errorText(error))}`, 'error');
    }
  }

  private async disconnect() {
    try {
      await this.api.disconnectLibraryB();
      this.connection = await this.api.libraryBConnection();
      await this.loadLibraries();
      announce(this, `Your ${this.libraryName('library_b')} account is disconnected.`);
    } catch (error) {
      announce(this, `Disconnecting failed: ${this.named(errorText(error))}`, 'error');
    }
  }

  override render() {
    return html`
      <h2>Library</h2>
      ${this.renderLibraries()}
      ${this.renderSearchForm()}
      ${this.result ? this.renderResults(this.result) : nothing}
      ${this.detail ? this.renderDetail() : nothing}
    `;
  }

  private renderLibraries() {
    const b = this.libraries.find((l) => l.id === 'library_b');
    return html`<section aria-labelledby="libs-title">
      <h3 id="libs-title">Libraries</h3>
      <ul>
        ${this.libraries.map(
          (l) => html`<li><a href=${l.homepage} target="_blank" rel="noopener">${l.name}</a>
          ${
            l.importAvailable
              ? html`<span class="ok">import available</span>`
              : html`<span class="muted">import not available</span>`
          }
          ${l.notice ? html`<span class="muted">— ${this.named(l.notice)}</span>` : nothing}</li>`,
        )}
      </ul>
      ${
        b
          ? html`<div class="card" id="library-b-connection">
            <strong>${b.name} account</strong>:
            ${
              this.connection?.connected
                ? html`connected${
                    b.connection?.displayName || b.connection?.username
                      ? ` as ${b.connection.displayName ?? b.connection.username}`
                      : ''
                  }. <button @click=${this.disconnect}>Disconnect</button>`
                : this.connection?.available === false
                  ? html`<span class="muted">imports from this library are not set up on this platform.</span>`
                  : html`not connected (needed to import its models). <button @click=${this.connect}
                      >Connect account</button>`
            }
          </div>`
          : nothing
      }
    </section>`;
  }

  private renderSearchForm() {
    return html`<form @submit=${this.search} aria-label="Search the libraries" class="card">
      <div class="row">
        <div><label for="lib-q">Search</label><input id="lib-q" name="q" type="search" /></div>
        <div><label for="lib-category">Category</label><select id="lib-category" name="category"
          ><option value="">Any</option>
          ${this.categories.map((c) => html`<option value=${c.id}>${c.label}</option>`)}</select></div>
        <div><label for="lib-license">Licence</label><select id="lib-license" name="license"
          ><option value="">Any</option>
          ${LICENSE_FILTER_WORDS.map(([id, words]) => html`<option value=${id}>${words}</option>`)}</select></div>
        <div><label for="lib-format">Format</label><select id="lib-format" name="format"
          ><option value="">Any</option><option value="glb">GLB</option><option value="gltf">glTF</option></select
        ></div>
        <div><label for="lib-poly">Max polygons</label><input
          id="lib-poly"
          name="maxPolygons"
          type="number"
          min="1"
          step="1"
          style="min-width:8rem"
        /></div>
      </div>
      <fieldset><legend>Libraries to search</legend>
        ${this.libraries.map(
          (l) =>
            html`<label class="inline"><input type="checkbox" name=${`provider:${l.id}`} checked /> ${l.name}</label>`,
        )}
        <label class="inline"><input type="checkbox" name="commercial" checked
          /> Only models with a clear commercial right</label>
      </fieldset>
      <button class="primary" type="submit" ?disabled=${this.busy}>Search</button>
    </form>`;
  }

  private renderResults(result: SearchResult) {
    return html`<section aria-labelledby="results-title">
      <h3 id="results-title">Results</h3>
      <ul class="library-status">
        ${result.providers.map(
          (p) =>
            html`<li data-provider=${p.provider}><strong>${this.libraryName(p.provider)}</strong>: <span
                class=${p.status === 'error' ? 'bad' : ''}
              >${searchStatusWords(p)}</span>${
                p.message ? html` — <span class="muted">${this.named(p.message)}</span>` : nothing
              }</li>`,
        )}
      </ul>
      <ul style="list-style:none;padding:0" class="results">
        ${result.items.map(
          (item) => html`<li class="card" style="display:flex;gap:0.8rem">
          ${
            item.thumbnailUrl
              ? html`<img
                  src=${item.thumbnailUrl}
                  alt=""
                  width="96"
                  height="96"
                  style="object-fit:cover"
                  loading="lazy"
                />`
              : nothing
          }
          <div>
            <strong>${item.name}</strong> <span class="muted">by ${item.author}</span><br />
            ${this.libraryName(item.provider)} · ${item.license} · <span
              class=${item.licenseTier === 'blocked' ? 'bad' : 'ok'}
            >${LICENSE_TIER_WORDS[item.licenseTier]}</span>${
              item.polygonCount ? `, ${item.polygonCount.toLocaleString()} polygons` : ''
            }<br />
            <button @click=${() => this.openItem(item)} aria-label=${`Details of ${item.name}`}>Details</button>
            ${
              item.importable
                ? nothing
                : html`<span class="muted">${this.named(item.notImportableReason ?? 'not importable')}</span>`
            }
          </div>
        </li>`,
        )}
      </ul>
      ${
        result.nextCursor
          ? html`<button @click=${() => this.search()} ?disabled=${this.busy}>More results</button>`
          : nothing
      }
    </section>`;
  }

  private renderDetail() {
    const { asset, alreadyImported, provider } = this.detail!;
    const job = this.job;
    return html`<section class="card" aria-labelledby="item-title">
      <h3 id="item-title" tabindex="-1">${asset.name}</h3>
      <p><span class="muted">by ${asset.author}, from</span> <a
        href=${asset.sourceUrl}
        target="_blank"
        rel="noopener"
      >${provider.name}</a></p>
      ${asset.description ? html`<p>${asset.description}</p>` : nothing}
      <dl>
        <dt>Licence</dt><dd>${
          asset.licenseUrl
            ? html`<a href=${asset.licenseUrl} target="_blank" rel="noopener">${asset.license}</a>`
            : asset.license
        }: ${LICENSE_TIER_WORDS[asset.licenseTier]}${asset.attributionRequired ? '; credit the author' : ''}</dd>
        <dt>Credit</dt><dd>${provider.credit}</dd>
        <dt>Formats</dt><dd>${asset.availableFormats.join(', ') || '—'}</dd>
        ${asset.polygonCount ? html`<dt>Polygons</dt><dd>${asset.polygonCount.toLocaleString()}</dd>` : nothing}
        ${asset.tags.length ? html`<dt>Tags</dt><dd>${asset.tags.join(', ')}</dd>` : nothing}
      </dl>
      ${
        alreadyImported
          ? html`<p class="ok">Already in the workspace library (asset <code>${alreadyImported.assetId}</code>).</p>`
          : nothing
      }
      ${
        asset.importable
          ? html`<form @submit=${this.startImport} aria-label="Import">
            ${
              asset.licenseTier === 'conditions'
                ? html`<label class="inline"><input type="checkbox" name="acknowledge" required
                    /> I will credit the author as the ${asset.license} licence requires</label>`
                : nothing
            }
            <button
              class="primary"
              type="submit"
              ?disabled=${this.busy || (job !== undefined && !['completed', 'failed'].includes(job.status))}
            >Import into the workspace library</button>
          </form>`
          : html`<p class="bad">Not importable: ${this.named(asset.notImportableReason ?? 'see the licence')}.</p>`
      }
      ${
        this.reusedAssetId
          ? html`<p class="ok">Already imported: asset <code>${this.reusedAssetId}</code>.</p>`
          : nothing
      }
      ${job ? this.renderJob(job) : nothing}
      ${this.importedAssetId ? this.renderAddToProject(this.importedAssetId) : nothing}
    </section>`;
  }

  /** The asset the last import made or found, ready to be added to a project. */
  private get importedAssetId(): string {
    return this.reusedAssetId || (this.job?.status === 'completed' ? (this.job.assetId ?? '') : '');
  }

  /** One step from the library to a project: the asset appended as a model entry, saved with If-Match. */
  private async addToProject(event: SubmitEvent, assetId: string) {
    event.preventDefault();
    const projectId = String(new FormData(event.target as HTMLFormElement).get('project') ?? '');
    const target = this.projects.find((p) => p.id === projectId);
    if (!target) return;
    this.busy = true;
    try {
      const [asset, { project, etag }] = await Promise.all([this.api.asset(assetId), this.api.project(projectId)]);
      const data = project.data as { models?: Array<Record<string, unknown>> };
      const models = Array.isArray(data.models) ? data.models : [];
      const entry = newModelEntry(asset, new Set(models.map((m) => String(m.id))));
      const input = { name: project.name, type: project.type, data: { ...data, models: [...models, entry] } };
      const saved = await this.api.putProject(projectId, input, etag);
      announce(
        this,
        `${asset.name} added to ${project.name} as model ${entry.id} (revision ${saved.project.revision}).`,
      );
    } catch (error) {
      announce(this, `Adding to ${target.name} failed: ${this.named(errorText(error))}`, 'error');
    } finally {
      this.busy = false;
    }
  }

  private renderAddToProject(assetId: string) {
    if (!this.projects.length)
      return html`<p class="muted">Create a project (Projects) to use this model in a configurator.</p>`;
    return html`<form class="row" @submit=${(e: SubmitEvent) => this.addToProject(e, assetId)}
      aria-label="Add to project">
      <div><label for="add-to-project">Add this model to project</label>
        <select id="add-to-project" name="project">
          ${this.projects.map((p) => html`<option value=${p.id}>${p.name}</option>`)}
        </select></div>
      <button class="primary" type="submit" ?disabled=${this.busy}>Add to project</button>
    </form>`;
  }

  private renderJob(job: ImportJob) {
    const bytes = job.bytesTotal
      ? ` (${Math.round(job.bytesReceived / 1024)} of ${Math.round(job.bytesTotal / 1024)} KB)`
      : '';
    return html`<div class="import-job" data-status=${job.status}>
      <label for="import-progress">Import: <span id="import-stage">${job.stage || job.status}</span>${bytes}</label>
      <progress
        id="import-progress"
        max="100"
        .value=${job.progress}
        aria-valuetext=${`${job.progress}%, ${job.stage}`}
      >${job.progress}%</progress> <span id="import-percent">${job.progress}%</span>
      <span class="badge" id="import-status">${job.status}</span>
      ${
        job.status === 'failed'
          ? html`<p class="bad">${this.named(job.error?.message ?? '')} (${job.error?.code})</p>`
          : nothing
      }
      ${
        job.status === 'completed' && job.readiness
          ? html`<div id="readiness"
              ><h4>Configurator readiness: ${job.readiness.score} / 100, ${job.readiness.level}</h4>
            <p>Saved as asset <code>${job.assetId}</code>.</p>
            <table><thead><tr>${READINESS_COLUMNS.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
            <tbody>${job.readiness.checks.map(
              (c) =>
                html`<tr><td>${c.label}</td><td
                    class=${c.status === 'pass' ? 'ok' : c.status === 'fail' ? 'bad' : ''}
                  >${c.status}</td><td>${String(c.value ?? '')}</td><td>${String(c.limit ?? '')}</td><td
                    >${c.message}</td></tr>`,
            )}</tbody></table>
            ${
              job.notices?.length
                ? html`<p class="muted">${job.notices
                    .map((n) => (typeof n === 'string' ? n : JSON.stringify(n)))
                    .join(' ')}</p>`
                : nothing
            }
          </div>`
          : nothing
      }
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'library-panel': LibraryPanel;
  }
}
