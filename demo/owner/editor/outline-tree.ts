import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { ModelOutline } from './editor-types.js';
import { panelStyles } from '../styles.js';

/**
 * A model's node tree with a checkbox per named node: the parts to delete. A name stands for every node of that name
 * (docs/scene-format.md), so checking one checks them all; a deleted node's subtree goes with it and says so.
 * Fires `parts-change` with the next `deletedParts`.
 */
@customElement('outline-tree')
export class OutlineTree extends LitElement {
  static override styles = [
    panelStyles,
    css`
      ul { list-style: none; margin: 0; padding-left: 1.2rem; }
      ul.root { padding-left: 0; max-height: 22rem; overflow: auto; }
      li label.inline { margin: 0.1rem 0; }
      .kind { font-size: 0.75rem; color: #667; }
      .gone { text-decoration: line-through; color: #777; }
    `,
  ];

  @property({ attribute: false }) outline?: ModelOutline;
  /** True while the outline is read; false with no outline means the model has none. */
  @property({ type: Boolean }) loading = false;
  @property({ attribute: false }) deletedParts: string[] = [];
  /** Names the tree is about, for the labels: "Parts of stool". */
  @property() modelName = '';

  private toggle(name: string, checked: boolean) {
    const next = checked ? [...new Set([...this.deletedParts, name])] : this.deletedParts.filter((n) => n !== name);
    this.dispatchEvent(new CustomEvent('parts-change', { detail: next }));
  }

  private renderNode(index: number, parentGone: boolean, depth: number): unknown {
    const node = this.outline!.nodes[index];
    if (!node || depth > 64) return nothing;
    const deleted = node.name !== null && this.deletedParts.includes(node.name);
    const gone = parentGone || deleted;
    const label = node.name ?? '(unnamed node)';
    return html`<li>
      <label class="inline ${parentGone ? 'gone' : ''}"
        ><input
          type="checkbox"
          .checked=${deleted}
          ?disabled=${node.name === null}
          @change=${(e: Event) => this.toggle(node.name!, (e.target as HTMLInputElement).checked)}
        />${label} <span class="kind">${node.mesh ? 'mesh' : 'group'}${
          parentGone ? ', deleted with its parent' : ''
        }</span></label
      >
      ${
        node.children.length
          ? html`<ul role="group">${node.children.map((child) => this.renderNode(child, gone, depth + 1))}</ul>`
          : nothing
      }
    </li>`;
  }

  override render() {
    const outline = this.outline;
    if (!outline)
      return html`<p class="muted">${
        this.loading
          ? 'The model’s parts are being read…'
          : 'The model’s parts could not be read, so none can be picked.'
      }</p>`;
    const roots = outline.nodes.map((node, index) => (node.parent === null ? index : -1)).filter((i) => i >= 0);
    const missing = this.deletedParts.filter((name) => !outline.nodes.some((node) => node.name === name));
    return html`<fieldset>
      <legend>Parts to delete${this.modelName ? ` from ${this.modelName}` : ''}</legend>
      <p class="muted">A deleted part and everything under it is never drawn, framed or exported.</p>
      <ul class="root">${roots.map((index) => this.renderNode(index, false, 0))}</ul>
      ${
        missing.length
          ? html`<p class="bad">Not in this model: ${missing.join(', ')}
              <button @click=${() =>
                this.dispatchEvent(
                  new CustomEvent('parts-change', {
                    detail: this.deletedParts.filter((n) => !missing.includes(n)),
                  }),
                )}>Remove these names</button></p>`
          : nothing
      }
      ${outline.truncated ? html`<p class="muted">The model has more parts than the outline lists.</p>` : nothing}
    </fieldset>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'outline-tree': OutlineTree;
  }
}
