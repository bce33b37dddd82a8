import { html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { idsOf, listAt, uniqueSlug } from './draft-edit.js';
import { PanelElement } from './panel-element.js';
import { MAX_ID_LENGTH, MAX_LABEL_LENGTH } from './prices.js';
import { BLOCKS } from './scene-lists.js';
import './block-editor.js';
import { MAX_OPTION_BLOCKS as MAX_BLOCKS } from '#core/wire/configurator/parse-option-blocks.js';

/** The Options panel: the option blocks as cards, in the order the visitor sees them. */
@customElement('editor-options-panel')
export class OptionsPanel extends PanelElement {
  private addBlock(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.elements.namedItem('name') as HTMLInputElement;
    const name = input.value.trim();
    if (!name) return;
    const blocks = listAt(this.data, BLOCKS);
    const id = uniqueSlug(name, idsOf(blocks), 'block', MAX_ID_LENGTH);
    input.value = '';
    this.commit(BLOCKS, [...blocks, { id, name, type: 'choice', choices: [] }], `Add block "${name}"`);
  }

  override render() {
    const blocks = listAt(this.data, BLOCKS);
    return html`
      <p class="panel-intro muted">
        Each block is one question to the shopper (seat, legs…). Its choices may change the price and the model.
      </p>
      ${this.warningList(BLOCKS, true)}
      ${blocks.length === 0 ? html`<p class="empty">No option block yet.</p>` : nothing}
      ${blocks.map(
        (_, i) => html`<editor-block
          .data=${this.data}
          .outlines=${this.outlines}
          .warnings=${this.warnings}
          .index=${i}
        ></editor-block>`,
      )}
      ${
        blocks.length < MAX_BLOCKS
          ? html`<form class="add-row card" @submit=${this.addBlock}>
            <label
            >
              New block name
              <input type="text" name="name" maxlength=${MAX_LABEL_LENGTH} required placeholder="Seat" />
            </label>
            <button type="submit" class="primary">Add block</button>
          </form>`
          : html`<p class="help">At most ${MAX_BLOCKS} option blocks.</p>`
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-options-panel': OptionsPanel;
  }
}
