import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { Api, Asset } from '../api.js';
import { announce, errorText, panelStyles } from '../styles.js';
import {
  editEvent,
  warningsAt,
  type OutlinesByModel,
  type ProjectDataDraft,
  type SceneWarning,
} from './editor-types.js';
import { newModelEntry, readVec3, toDegrees, toRadians, type Vec3 } from './model-entry.js';
import { initials } from './initials.js';
import './outline-tree.js';

type Placement = 'position' | 'rotation' | 'scale';
const AXES = ['x', 'y', 'z'] as const;
const ACCEPT = '.glb,.gltf,.zip';
const megabytes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
const kilobytes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 });
const fileSize = (bytes: number) =>
  bytes >= 1_000_000 ? megabytes.format(bytes / 1_000_000) : kilobytes.format(Math.max(1, bytes / 1000));

/** What shoppers download of a model, in a few words (docs/delivery-files.md). */
function deliveryWords({ status, sizeBytes, originalBytes }: Asset['delivery']): string {
  if (status === 'pending') return 'optimizing for shoppers…';
  if (status !== 'ready' || sizeBytes === null) return 'shoppers get it as uploaded';
  const saved = Math.round((1 - sizeBytes / originalBytes) * 100);
  return `shoppers download ${fileSize(sizeBytes)} (${saved}% less)`;
}

/** Delivery files take seconds to minutes: the list is re-read every 3 s, for up to 10 minutes. */
const DELIVERY_POLL_MS = 3000;
const DELIVERY_POLLS = 200;

const READINESS_WORDS: Record<string, string> = {
  ready: 'ready for a configurator',
  'needs-work': 'needs work',
  'not-ready': 'not ready',
};

/** The licence and credit an imported model carries (`externalSource`), in a line; uploads have none. */
function provenance(asset: Asset): string {
  const source = asset.externalSource;
  if (!source) return 'Uploaded';
  const parts = [String(source.license ?? 'licence unknown')];
  if (source.attribution) parts.push(String(source.attribution));
  else if (source.author) parts.push(`by ${String(source.author)}`);
  return parts.join(' · ');
}

/** The Models section: upload or add a workspace asset, place each model, pick parts to delete in its node tree. */
@customElement('editor-models-panel')
export class ModelsPanel extends LitElement {
  static override styles = [
    panelStyles,
    css`
      .drop { border: 2px dashed #99a; border-radius: 8px; padding: 0.8rem 1rem; background: #fafbff; }
      .drop.over { border-color: #224; background: #eef; }
      .assets { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0.6rem; }
      .asset {
        display: flex; gap: 0.6rem; align-items: center; border: 1px solid #ddd; border-radius: 6px; padding: 0.4rem;
      }
      .thumb {
        flex: none; width: 3rem; height: 3rem; border-radius: 6px; display: grid; place-items: center;
        background: #dde3f4; color: #224; font-weight: 700; object-fit: cover;
      }
      .asset .text { min-width: 0; font-size: 0.85rem; }
      .asset .text strong { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .placement {
        display: grid; grid-template-columns: 6rem repeat(3, minmax(0, 7rem)); gap: 0.3rem 0.5rem; align-items: center;
      }
      .placement input { min-width: 0; width: 100%; }
      .placement label { margin: 0; font-weight: normal; }
      .model h3 { display: flex; justify-content: space-between; align-items: center; margin-top: 0; }
      .warn { color: #7a4b00; font-size: 0.9rem; }
    `,
  ];

  @property({ attribute: false }) api!: Api;
  @property({ attribute: false }) data!: ProjectDataDraft;
  @property({ attribute: false }) outlines: OutlinesByModel = {};
  @property({ attribute: false }) warnings: SceneWarning[] = [];
  @state() private assets?: Asset[];
  @state() private upload?: { name: string; progress: number; asset?: Asset; error?: string };
  @state() private dragging = false;

  /** Re-reads the list while a model's delivery file is being made, so its line turns to what shoppers get. */
  private deliveryPolling?: ReturnType<typeof setTimeout>;
  private deliveryPolls = 0;

  override connectedCallback() {
    super.connectedCallback();
    void this.loadAssets();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.deliveryPolling);
  }

  private async loadAssets() {
    try {
      this.assets = await this.api.assets();
    } catch (error) {
      this.assets = [];
      announce(this, `Could not read the workspace's models: ${errorText(error)}`, 'error');
    }
    this.followDeliveries();
  }

  private followDeliveries() {
    clearTimeout(this.deliveryPolling);
    if (!this.assets?.some((asset) => asset.delivery.status === 'pending')) return;
    if (++this.deliveryPolls > DELIVERY_POLLS) return;
    this.deliveryPolling = setTimeout(async () => {
      // Quietly: a failed re-read keeps the list as it is and tries again.
      this.assets = await this.api.assets().catch(() => this.assets);
      this.followDeliveries();
    }, DELIVERY_POLL_MS);
  }

  private edit(models: ProjectDataDraft['models'], label: string) {
    this.dispatchEvent(editEvent({ data: { ...this.data, models }, label }));
  }

  private add(asset: Asset) {
    const taken = new Set(this.data.models.map((m) => String(m.id)));
    this.edit([...this.data.models, newModelEntry(asset, taken)], `Add model ${asset.name}`);
    announce(this, `${asset.name} added to the scene (save to keep it).`);
  }

  private async uploadFile(file: File | undefined) {
    if (!file) return;
    if (!/\.(glb|gltf|zip)$/i.test(file.name)) {
      this.upload = { name: file.name, progress: 0, error: 'Choose a .glb, a .gltf with embedded buffers, or a .zip.' };
      return;
    }
    this.upload = { name: file.name, progress: 0 };
    try {
      const asset = await this.api.uploadAsset(file, (fraction) => {
        this.upload = { name: file.name, progress: Math.round(fraction * 100) };
      });
      this.upload = { name: file.name, progress: 100, asset };
      this.assets = [asset, ...(this.assets ?? []).filter((a) => a.id !== asset.id)];
      this.deliveryPolls = 0;
      this.followDeliveries();
      this.add(asset);
    } catch (error) {
      this.upload = { name: file.name, progress: 0, error: errorText(error) };
      announce(this, `Upload of ${file.name} failed: ${errorText(error)}`, 'error');
    }
  }

  private onDrop(event: DragEvent) {
    event.preventDefault();
    this.dragging = false;
    void this.uploadFile(event.dataTransfer?.files[0]);
  }

  private place(index: number, key: Placement, axis: keyof Vec3, raw: string) {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) return;
    const entry = this.data.models[index]!;
    const current = readVec3(entry[key], key === 'scale' ? 1 : 0);
    const next = { ...current, [axis]: key === 'rotation' ? toRadians(value) : value };
    const models = this.data.models.map((m, i) => (i === index ? { ...m, [key]: next } : m));
    const verb = { position: 'Move', rotation: 'Turn', scale: 'Scale' }[key];
    this.edit(models, `${verb} model ${String(entry.id)}`);
  }

  private removeModel(index: number) {
    const entry = this.data.models[index]!;
    this.edit(
      this.data.models.filter((_, i) => i !== index),
      `Remove model ${String(entry.id)}`,
    );
  }

  private setDeleted(index: number, deletedParts: string[]) {
    const entry = this.data.models[index]!;
    const models = this.data.models.map((m, i) => (i === index ? { ...m, deletedParts } : m));
    this.edit(models, `Parts to delete of ${String(entry.id)}`);
  }

  override render() {
    return html`
      ${
        this.data.models.length === 0
          ? html`<p>Start with a model: upload a file, or add one of your workspace's models.</p>`
          : this.data.models.map((entry, index) => this.renderModel(entry, index))
      }
      <h3>Add a model</h3>
      ${this.renderUpload()}
      ${this.renderAssets()}
    `;
  }

  private renderUpload() {
    const upload = this.upload;
    return html`<div
      class="drop ${this.dragging ? 'over' : ''}"
      @dragover=${(e: DragEvent) => {
        e.preventDefault();
        this.dragging = true;
      }}
      @dragleave=${() => (this.dragging = false)}
      @drop=${this.onDrop}
    >
      <label for="model-file">Upload a model (.glb, .gltf or .zip, at most 50 MB)</label>
      <input
        id="model-file"
        type="file"
        accept=${ACCEPT}
        @change=${(e: Event) => void this.uploadFile((e.target as HTMLInputElement).files?.[0])}
      />
      <span class="muted">or drop the file here</span>
      ${upload ? this.renderUploadState(upload) : nothing}
    </div>`;
  }

  private renderUploadState(upload: NonNullable<ModelsPanel['upload']>) {
    if (upload.error) return html`<p class="bad" id="upload-error">${upload.name}: ${upload.error}</p>`;
    if (!upload.asset)
      return html`<p><label for="upload-progress">Uploading ${upload.name}</label>
        <progress id="upload-progress" max="100" .value=${upload.progress}>${upload.progress}%</progress>
        ${upload.progress}%${upload.progress === 100 ? ', checking the file…' : ''}</p>`;
    const asset = upload.asset;
    const info = asset.modelInfo as { totalTriangleCount?: number; totalVertexCount?: number };
    const counts = [
      info.totalTriangleCount !== undefined ? `${info.totalTriangleCount.toLocaleString()} triangles` : '',
      info.totalVertexCount !== undefined ? `${info.totalVertexCount.toLocaleString()} vertices` : '',
    ].filter(Boolean);
    return html`<p id="upload-result" class="ok">
      ${upload.name} passed the model checks and was added${counts.length ? ` (${counts.join(', ')})` : ''}.
      ${
        asset.readinessLevel
          ? html`Readiness ${asset.readinessScore} / 100: ${READINESS_WORDS[asset.readinessLevel]}.`
          : html`<span class="muted">Readiness is scored for library imports only.</span>`
      }
    </p>`;
  }

  private renderAssets() {
    if (!this.assets) return html`<p class="muted">Reading the workspace's models…</p>`;
    if (!this.assets.length) return nothing;
    return html`<h3>Your workspace's models</h3>
      <ul class="assets" style="list-style:none;padding:0">
        ${this.assets.map((asset) => {
          const thumb = asset.externalSource?.thumbnailUrl;
          return html`<li class="asset">
            ${
              typeof thumb === 'string' && thumb.startsWith('https:')
                ? html`<img class="thumb" src=${thumb} alt="" />`
                : html`<span class="thumb" aria-hidden="true">${initials(asset.name)}</span>`
            }
            <span class="text"><strong title=${asset.name}>${asset.name}</strong>
              <span class="muted">${provenance(asset)}${
                asset.readinessLevel ? ` · ${READINESS_WORDS[asset.readinessLevel]}` : ''
              } · <span title=${asset.delivery.reason ?? ''}>${deliveryWords(asset.delivery)}</span></span></span>
            <button @click=${() => this.add(asset)} aria-label=${`Add ${asset.name} to the scene`}>Add</button>
          </li>`;
        })}
      </ul>`;
  }

  private renderModel(entry: Record<string, unknown>, index: number) {
    const id = String(entry.id ?? index);
    const asset = this.assets?.find((a) => a.id === entry.assetId);
    const warnings = warningsAt(this.warnings, `models.${index}`);
    const deletedParts = Array.isArray(entry.deletedParts) ? entry.deletedParts.map(String) : [];
    return html`<section class="card model" aria-labelledby=${`model-${index}-title`}>
      <h3 id=${`model-${index}-title`}>
        <span>${asset?.name ?? String(entry.fileName ?? id)} <span class="muted">(${id})</span></span>
        <button class="danger" @click=${() => this.removeModel(index)} aria-label=${`Remove model ${id}`}
          >Remove</button>
      </h3>
      ${warnings.map((w) => html`<p class="warn">${w.message}</p>`)}
      <fieldset>
        <legend>Placement</legend>
        <div class="placement">
          <span></span>${AXES.map((a) => html`<span class="muted">${a.toUpperCase()}</span>`)}
          ${this.renderVector(entry, index, 'position', 'Position', 0.01)}
          ${this.renderVector(entry, index, 'rotation', 'Rotation (°)', 1)}
          ${this.renderVector(entry, index, 'scale', 'Scale', 0.01)}
        </div>
      </fieldset>
      ${
        typeof entry.assetId === 'string'
          ? html`<outline-tree
              .outline=${this.outlines[id]}
              .loading=${!(id in this.outlines)}
              .deletedParts=${deletedParts}
              .modelName=${id}
              @parts-change=${(e: CustomEvent<string[]>) => this.setDeleted(index, e.detail)}
            ></outline-tree>`
          : html`<p class="muted">This model has no workspace asset, so its parts cannot be listed.</p>`
      }
    </section>`;
  }

  private renderVector(entry: Record<string, unknown>, index: number, key: Placement, title: string, step: number) {
    const vector = readVec3(entry[key], key === 'scale' ? 1 : 0);
    return html`<span>${title}</span>${AXES.map((axis) => {
      const value = key === 'rotation' ? toDegrees(vector[axis]) : vector[axis];
      return html`<input
        type="number"
        step=${step}
        aria-label=${`${title} ${axis.toUpperCase()} of ${String(entry.id ?? index)}`}
        .value=${String(value)}
        @change=${(e: Event) => this.place(index, key, axis, (e.target as HTMLInputElement).value)}
      />`;
    })}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-models-panel': ModelsPanel;
  }
}
