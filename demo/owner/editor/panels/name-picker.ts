import { LitElement, html, nothing } from 'lit';
import { cssomStyle } from '../../cssom-style.js';
import { customElement, property } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { editorStyles } from './editor-styles.js';
import type { NodeName } from './outline-names.js';

let lists = 0;

/**
 * Picks glTF names from a model's outline: a checkbox list (nodes indented by depth) when `multiple`, else a
 * combobox. A name the outline lacks stays visible and is flagged; typing one is still possible (the outline may
 * be missing). Fires `names-change` with the new string[] (multiple) or string | undefined.
 */
@customElement('editor-name-picker')
export class NamePicker extends LitElement {
  static override styles = editorStyles;

  @property() label = '';
  @property({ attribute: false }) names: NodeName[] = [];
  @property({ attribute: false }) value: string[] | string | undefined;
  @property({ type: Boolean }) multiple = false;
  /** False when there is no outline to check against. */
  @property({ type: Boolean }) known = true;
  /** What a name is, for the flag: "node", "material". */
  @property() kind = 'name';
  private readonly listId = `names-${++lists}`;

  private emit(value: string[] | string | undefined) {
    this.dispatchEvent(new CustomEvent('names-change', { detail: value }));
  }

  private get selected(): string[] {
    if (Array.isArray(this.value)) return this.value.map(String);
    return typeof this.value === 'string' && this.value ? [this.value] : [];
  }

  private isKnown(name: string) {
    return this.names.some((entry) => entry.name === name);
  }

  private flag(name: string) {
    if (!this.known || this.isKnown(name)) return nothing;
    return html`<span class="flag" role="status">⚠ “${name}” is not a ${this.kind} of this model.</span>`;
  }

  private datalist() {
    return html`<datalist id=${this.listId}>${this.names.map(
      (n) => html`<option value=${n.name}></option>`,
    )}</datalist>`;
  }

  override render() {
    return this.multiple ? this.renderMany() : this.renderOne();
  }

  private renderOne() {
    const value = this.selected[0] ?? '';
    return html`<div class="field">
      <label>
        ${this.label}
        <input
          type="text"
          list=${this.listId}
          autocomplete="off"
          .value=${value}
          @change=${(event: Event) => this.emit((event.target as HTMLInputElement).value.trim() || undefined)}
        />
      </label>
      ${this.datalist()}
      ${value ? this.flag(value) : nothing}
      ${this.known ? nothing : html`<p class="help">No outline for this model yet: names cannot be checked.</p>`}
    </div>`;
  }

  private renderMany() {
    const selected = this.selected;
    const unknown = selected.filter((name) => !this.isKnown(name));
    const toggle = (name: string, on: boolean) =>
      this.emit(on ? [...selected, name] : selected.filter((entry) => entry !== name));
    return html`<fieldset>
      <legend>${this.label}</legend>
      ${
        this.names.length === 0
          ? html`<p class="empty">
            ${this.known ? `The model names no ${this.kind}s.` : 'No outline for this model yet: type names below.'}
          </p>`
          : html`<div class="picker" role="group" aria-label=${this.label}>
            ${this.names.map(
              (node) =>
                html`<label ${cssomStyle({ paddingLeft: `${node.depth * 1.1}rem` })}>
                  <input
                    type="checkbox"
                    .checked=${live(selected.includes(node.name))}
                    @change=${(event: Event) => toggle(node.name, (event.target as HTMLInputElement).checked)}
                  />
                  ${node.name}
                </label>`,
            )}
          </div>`
      }
      ${
        unknown.length
          ? html`<div class="chips">
            ${unknown.map(
              (name) =>
                html`<span class=${this.known ? 'chip unknown' : 'chip'}>
                  ${name}
                  <button type="button" aria-label="Remove ${name}" @click=${() => toggle(name, false)}>×</button>
                </span>${this.flag(name)}`,
            )}
          </div>`
          : nothing
      }
      <label class="check">
        Type a name
        <input
          type="text"
          list=${this.listId}
          autocomplete="off"
          aria-label="Type a ${this.kind} name for ${this.label}"
          @change=${(event: Event) => {
            const input = event.target as HTMLInputElement;
            const name = input.value.trim();
            input.value = '';
            if (name && !selected.includes(name)) toggle(name, true);
          }}
        />
      </label>
      ${this.datalist()}
    </fieldset>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-name-picker': NamePicker;
  }
}
