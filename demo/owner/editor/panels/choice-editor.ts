import { html, nothing } from 'lit';
import { cssomStyle } from '../../cssom-style.js';
import { customElement, property } from 'lit/decorators.js';
import { SELECT_CHOICE_EVENT, type SelectChoiceDetail } from '../editor-types.js';
import { entryName, isRecord, listAt, moveItem, removeItem, type Json } from './draft-edit.js';
import { EFFECT_TYPES, newEffect } from './effect-editor.js';
import { PanelElement } from './panel-element.js';
import { amountRule, MAX_ID_LENGTH, MAX_LABEL_LENGTH } from './prices.js';
import { idOf } from './scene-lists.js';
import './effect-editor.js';
import { MAX_EFFECTS_PER_CHOICE as MAX_EFFECTS } from '#core/wire/configurator/parse-effects.js';

/** One choice of a block, collapsible: its fields, then its effects in order. Opening it shows it in the preview. */
@customElement('editor-choice')
export class ChoiceEditor extends PanelElement {
  /** The block's path; the choice is `choices[index]` of it. */
  @property({ attribute: false }) blockPath: (string | number)[] = [];
  @property({ type: Number }) index = 0;
  @property({ attribute: false }) blockModel: string | null = null;
  @property({ type: Boolean }) open = false;

  private get path() {
    return [...this.blockPath, 'choices', this.index];
  }

  private get choice(): Json {
    const value = this.get(this.path);
    return isRecord(value) ? value : {};
  }

  private get name() {
    return entryName(this.choice, this.index, 'label');
  }

  private get blockName() {
    return entryName(this.get(this.blockPath), 0);
  }

  private edit(what: string) {
    return `${what} of choice "${this.name}"`;
  }

  private select() {
    const blockId = idOf(this.get(this.blockPath));
    const choiceId = idOf(this.choice);
    if (!blockId || !choiceId) return;
    const detail: SelectChoiceDetail = { blockId, choiceId };
    this.dispatchEvent(new CustomEvent(SELECT_CHOICE_EVENT, { detail, bubbles: true, composed: true }));
  }

  private setDefault(on: boolean) {
    const choicesPath = [...this.blockPath, 'choices'];
    // One default per block: marking this one clears the others.
    const next = listAt(this.data, choicesPath).map((choice, i) => {
      if (!isRecord(choice)) return choice;
      const { default: _was, ...rest } = choice;
      return i === this.index ? (on ? { ...rest, default: true } : rest) : rest;
    });
    this.commit(
      choicesPath,
      next,
      on ? `Make "${this.name}" the default of "${this.blockName}"` : this.edit('Unset default'),
    );
  }

  private moveOrRemove(kind: 'up' | 'down' | 'remove') {
    const choicesPath = [...this.blockPath, 'choices'];
    const list = listAt(this.data, choicesPath);
    if (kind === 'remove') {
      if (!confirm(`Remove choice "${this.name}" and its effects?`)) return;
      this.commit(choicesPath, removeItem(list, this.index), `Remove choice "${this.name}"`);
    } else {
      this.commit(
        choicesPath,
        moveItem(list, this.index, kind === 'up' ? -1 : 1),
        `Move choice "${this.name}" ${kind}`,
      );
    }
  }

  private effectsSection() {
    const effectsPath = [...this.path, 'effects'];
    const effects = listAt(this.data, effectsPath);
    return html`<h5 class="sub">Effects</h5>
      ${effects.length === 0 ? html`<p class="empty">No effect: choosing it only changes the price.</p>` : nothing}
      ${effects.map(
        (_, i) => html`<div class="card nested">
          <div class="card-head">
            <h5>Effect ${i + 1}</h5>
            ${this.warningCount([...effectsPath, i])}
            <span class="tools">
              <button type="button" ?disabled=${i === 0} aria-label="Move effect ${i + 1} up"
                @click=${() =>
                  this.commit(
                    effectsPath,
                    moveItem(effects, i, -1),
                    this.edit(`Move effect ${i + 1} up`),
                  )}>Move up</button>
              <button type="button" ?disabled=${i === effects.length - 1} aria-label="Move effect ${i + 1} down"
                @click=${() =>
                  this.commit(
                    effectsPath,
                    moveItem(effects, i, 1),
                    this.edit(`Move effect ${i + 1} down`),
                  )}>Move down</button>
              <button type="button" class="danger" aria-label="Remove effect ${i + 1}"
                @click=${() =>
                  this.commit(effectsPath, removeItem(effects, i), this.edit(`Remove effect ${i + 1}`))}>Remove</button>
            </span>
          </div>
          <editor-effect
            .data=${this.data}
            .outlines=${this.outlines}
            .warnings=${this.warnings}
            .path=${[...effectsPath, i]}
            .blockModel=${this.blockModel}
            subject=${`effect ${i + 1} of "${this.name}"`}
          ></editor-effect>
        </div>`,
      )}
      ${
        effects.length < MAX_EFFECTS
          ? html`<div class="add-row">
            <label class="check">
              Add an effect
              <select aria-label="Add an effect of type" @change=${(event: Event) => {
                const select = event.target as HTMLSelectElement;
                const type = select.value;
                select.value = '';
                if (type) this.commit(effectsPath, [...effects, newEffect(type)], this.edit(`Add a ${type} effect`));
              }}>
                <option value="">Choose a type…</option>
                ${EFFECT_TYPES.map(([value, text]) => html`<option value=${value}>${text}</option>`)}
              </select>
            </label>
          </div>`
          : html`<p class="help">At most ${MAX_EFFECTS} effects per choice.</p>`
      }`;
  }

  override render() {
    const choice = this.choice;
    const count = listAt(this.data, [...this.blockPath, 'choices']).length;
    const colour = typeof choice.color === 'string' ? choice.color : undefined;
    const price = typeof choice.price === 'number' ? choice.price : undefined;
    return html`<details class="card nested" aria-label="Choice ${this.name}" ?open=${this.open} @toggle=${(
      event: Event,
    ) => {
      this.open = (event.target as HTMLDetailsElement).open;
      if (this.open) this.select();
    }}>
      <summary>
        ${colour ? html`<span class="swatch" ${cssomStyle({ background: colour })}></span>` : nothing}
        ${this.name}
        ${price !== undefined ? html`<span class="badge">${price > 0 ? '+' : ''}${price}</span>` : nothing}
        ${choice.default === true ? html`<span class="badge">default</span>` : nothing}
        ${this.warningCount(this.path)}
      </summary>
      ${
        // A closed card renders its summary only: a project at the limits holds 2,000 choices.
        this.open
          ? html`
        <div class="card-head">
          ${this.orderTools(
            `choice ${this.name}`,
            this.index,
            count,
            (action) => this.moveOrRemove(action),
            html`<button type="button" @click=${() => this.select()}>Show in preview</button>`,
          )}
        </div>
        ${this.warningList(this.path, true)}
        <div class="grid">
          ${this.textField({
            label: 'Label',
            path: [...this.path, 'label'],
            edit: this.edit('Rename'),
            maxLength: MAX_LABEL_LENGTH,
          })}
          ${this.numberField({
            label: 'Price',
            path: [...this.path, 'price'],
            rule: amountRule('Price'),
            edit: this.edit('Set price'),
            help: 'Added to the total when chosen; may be negative. Empty: no price line.',
          })}
          <div class="field">
            <label class="check">
              <input
                type="checkbox"
                .checked=${choice.default === true}
                @change=${(event: Event) => this.setDefault((event.target as HTMLInputElement).checked)}
              />
              Default choice
            </label>
            ${this.warningList([...this.path, 'default'])}
          </div>
          ${this.colourField({
            label: 'Colour',
            path: [...this.path, 'color'],
            edit: this.edit('Set colour'),
            help: 'A swatch shows its thumbnail, else this colour.',
          })}
          ${this.textField({
            label: 'Thumbnail URL',
            type: 'url',
            path: [...this.path, 'thumbnail'],
            edit: this.edit('Set thumbnail'),
            help: 'An https image.',
            wide: true,
          })}
          ${this.textField({
            label: 'SKU',
            path: [...this.path, 'sku'],
            edit: this.edit('Set SKU'),
            maxLength: MAX_ID_LENGTH,
          })}
          ${this.numberField({
            label: 'Value',
            path: [...this.path, 'value'],
            rule: amountRule('Value'),
            edit: this.edit('Set value'),
            help: 'The number a price formula step reads from this block.',
          })}
        </div>
        ${this.effectsSection()}
        <details class="advanced">
          <summary>Advanced</summary>
          ${this.textField({
            label: 'Choice id',
            path: [...this.path, 'id'],
            edit: this.edit('Change id'),
            maxLength: MAX_ID_LENGTH,
            help: 'Saved configurations, rules and the price list name choices by id.',
          })}
        </details>
            `
          : nothing
      }
    </details>`;
  }
}
