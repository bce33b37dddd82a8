import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { entryName, idsOf, isRecord, listAt, moveItem, removeItem, uniqueSlug, type Json } from './draft-edit.js';
import { PanelElement } from './panel-element.js';
import { MAX_ID_LENGTH, MAX_LABEL_LENGTH } from './prices.js';
import { BLOCKS, idOf, modelChoices } from './scene-lists.js';
import './choice-editor.js';
import './rule-editor.js';
import {
  MAX_CHOICES_PER_BLOCK,
  MAX_RULES_PER_BLOCK as MAX_RULES,
} from '#core/wire/configurator/parse-option-blocks.js';

const TYPES = [
  ['choice', 'Choice: a list of options'],
  ['swatch', 'Swatch: colour or picture tiles'],
  ['toggle', 'Toggle: a switch (two choices, off then on)'],
] as const;

/** One option block as a card: name, type, target model, its choices and its rules. */
@customElement('editor-block')
export class BlockEditor extends PanelElement {
  @property({ type: Number }) index = 0;
  /** The choice shown open (the one just added). */
  @property({ attribute: false }) openChoice: string | null = null;

  private get path() {
    return [...BLOCKS, this.index];
  }

  private get block(): Json {
    const value = this.get(this.path);
    return isRecord(value) ? value : {};
  }

  private get name() {
    return entryName(this.block, this.index);
  }

  private get target(): string | null {
    const id = idOf({ id: this.block.targetObjectId });
    return id || null;
  }

  private addChoice(event: Event) {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('label') as HTMLInputElement;
    const label = input.value.trim();
    if (!label) return;
    const choices = listAt(this.data, [...this.path, 'choices']);
    const id = uniqueSlug(label, idsOf(choices), 'choice', MAX_ID_LENGTH);
    input.value = '';
    this.openChoice = id;
    this.commit([...this.path, 'choices'], [...choices, { id, label }], `Add choice "${label}" to "${this.name}"`);
  }

  private addRule() {
    const rules = listAt(this.data, [...this.path, 'rules']);
    const earlier = listAt(this.data, BLOCKS)
      .slice(0, this.index)
      .filter((b) => isRecord(b) && idOf(b));
    const first = earlier.at(-1) as Json | undefined;
    const firstChoice = first && Array.isArray(first.choices) ? idOf(first.choices[0]) : '';
    const when = first && firstChoice ? { [idOf(first)]: firstChoice } : {};
    this.commit([...this.path, 'rules'], [...rules, { when, hide: [] }], `Add a rule to "${this.name}"`);
  }

  private rulesSection() {
    const rulesPath = [...this.path, 'rules'];
    const rules = listAt(this.data, rulesPath);
    return html`<details ?open=${rules.length > 0}>
      <summary>Rules (${rules.length}) ${this.warningCount(rulesPath)}</summary>
      <p
        class="help"
      >
        Hide or disable this block’s choices depending on earlier blocks, e.g. walnut requires brass legs.</p>
      ${rules.map(
        (_, i) => html`<div class="card nested">
          <div class="card-head">
            <h5>Rule ${i + 1}</h5>
            <button type="button" class="small danger" aria-label="Remove rule ${i + 1} of ${this.name}"
              @click=${() =>
                this.commit(
                  rulesPath,
                  removeItem(rules, i),
                  `Remove rule ${i + 1} of "${this.name}"`,
                )}>Remove rule</button>
          </div>
          ${this.warningList([...rulesPath, i], true)}
          <editor-rule .data=${this.data} .outlines=${this.outlines} .warnings=${this.warnings}
            .blockPath=${this.path} .blockIndex=${this.index} .index=${i}></editor-rule>
        </div>`,
      )}
      ${
        this.index === 0
          ? html`<p class="help">The first block has no earlier block to depend on.</p>`
          : rules.length < MAX_RULES
            ? html`<button type="button" @click=${() => this.addRule()}>Add a rule</button>`
            : nothing
      }
    </details>`;
  }

  private moveOrRemove(kind: 'up' | 'down' | 'remove') {
    const blocks = listAt(this.data, BLOCKS);
    if (kind === 'remove') {
      if (!confirm(`Remove block "${this.name}" with its choices and rules?`)) return;
      this.commit(BLOCKS, removeItem(blocks, this.index), `Remove block "${this.name}"`);
    } else {
      this.commit(BLOCKS, moveItem(blocks, this.index, kind === 'up' ? -1 : 1), `Move block "${this.name}" ${kind}`);
    }
  }

  override render() {
    const choices = listAt(this.data, [...this.path, 'choices']);
    const count = listAt(this.data, BLOCKS).length;
    return html`<section class="card" aria-label="Block ${this.name}">
      <div class="card-head">
        <h3>${this.name}</h3>
        <span class="badge">${String(this.block.type ?? 'choice')}</span>
        ${this.warningCount(this.path)}
        ${this.orderTools(`block ${this.name}`, this.index, count, (action) => this.moveOrRemove(action))}
      </div>
      ${this.warningList(this.path, true)}
      <div class="grid">
        ${this.textField({
          label: 'Block name',
          path: [...this.path, 'name'],
          edit: `Rename block "${this.name}"`,
          maxLength: MAX_LABEL_LENGTH,
        })}
        ${this.selectField({
          label: 'Type',
          path: [...this.path, 'type'],
          edit: `Change type of "${this.name}"`,
          choices: TYPES,
        })}
        ${this.selectField({
          label: 'Target model',
          path: [...this.path, 'targetObjectId'],
          edit: `Change target model of "${this.name}"`,
          choices: [['', 'Every model'], ...modelChoices(this.data)],
          help: 'Effects apply to this model unless they name another.',
        })}
      </div>
      <h4 class="sub">Choices (${choices.length}) ${this.warningCount([...this.path, 'choices'])}</h4>
      ${this.warningList([...this.path, 'choices'], true)}
      ${choices.map(
        (choice, i) => html`<editor-choice
          .data=${this.data}
          .outlines=${this.outlines}
          .warnings=${this.warnings}
          .blockPath=${this.path}
          .index=${i}
          .blockModel=${this.target}
          .open=${this.openChoice !== null && idOf(choice) === this.openChoice}
        ></editor-choice>`,
      )}
      ${
        choices.length < MAX_CHOICES_PER_BLOCK
          ? html`<form class="add-row" @submit=${this.addChoice}>
            <label>New choice label <input type="text" name="label" maxlength=${MAX_LABEL_LENGTH} required /></label>
            <button type="submit">Add choice</button>
          </form>`
          : html`<p class="help">At most ${MAX_CHOICES_PER_BLOCK} choices per block.</p>`
      }
      ${this.rulesSection()}
      <details class="advanced">
        <summary>Advanced</summary>
        ${this.textField({
          label: 'Block id',
          path: [...this.path, 'id'],
          edit: `Change id of "${this.name}"`,
          maxLength: MAX_ID_LENGTH,
          help: 'Rules, prices, animations and saved configurations name the block by this id.',
        })}
      </details>
    </section>`;
  }
}
