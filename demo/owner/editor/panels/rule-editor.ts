import { html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { entryName, isRecord, listAt, type Json } from './draft-edit.js';
import { PanelElement } from './panel-element.js';
import { idOf } from './scene-lists.js';
import './when-editor.js';

/** One rule of a block (docs/scene-format.md, "Option rules"): when earlier blocks hold, hide or disable choices. */
@customElement('editor-rule')
export class RuleEditor extends PanelElement {
  @property({ attribute: false }) blockPath: (string | number)[] = [];
  @property({ type: Number }) blockIndex = 0;
  @property({ type: Number }) index = 0;

  private get path() {
    return [...this.blockPath, 'rules', this.index];
  }

  private get rule(): Json {
    const value = this.get(this.path);
    return isRecord(value) ? value : {};
  }

  private subject() {
    return `rule ${this.index + 1} of "${entryName(this.get(this.blockPath), this.blockIndex)}"`;
  }

  private choiceList(key: 'hide' | 'disable', legend: string) {
    const listed = (Array.isArray(this.rule[key]) ? (this.rule[key] as unknown[]) : []).map(String);
    const choices = listAt(this.data, [...this.blockPath, 'choices']);
    const set = (next: string[]) =>
      this.commit([...this.path, key], next.length ? next : undefined, `Change ${key} (${this.subject()})`);
    return html`<fieldset>
      <legend>${legend}</legend>
      <div class="picker" role="group" aria-label=${legend}>
        ${choices.map((choice, i) => {
          const id = idOf(choice);
          return html`<label>
            <input
              type="checkbox"
              .checked=${listed.includes(id)}
              @change=${(event: Event) =>
                set((event.target as HTMLInputElement).checked ? [...listed, id] : listed.filter((x) => x !== id))}
            />
            ${entryName(choice, i, 'label')}
          </label>`;
        })}
      </div>
      ${this.warningList([...this.path, key])}
    </fieldset>`;
  }

  override render() {
    return html`<editor-when
        .data=${this.data}
        .outlines=${this.outlines}
        .warnings=${this.warnings}
        .path=${[...this.path, 'when']}
        .beforeIndex=${this.blockIndex}
        subject=${this.subject()}
      ></editor-when>
      <div class="grid">
        ${this.choiceList('hide', 'Then hide these choices')}
        ${this.choiceList('disable', 'Then disable these choices')}
      </div>
      ${this.checkField({
        label: 'Then hide the whole block',
        path: [...this.path, 'hideBlock'],
        fallback: false,
        edit: `Change hide block (${this.subject()})`,
        help: 'A hidden block adds no effect and no price.',
      })}`;
  }
}
