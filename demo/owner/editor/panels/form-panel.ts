import { html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { entryName, idsOf, isRecord, listAt, moveItem, removeItem, uniqueSlug, type Json } from './draft-edit.js';
import { PanelElement } from './panel-element.js';
import { amountRule, MAX_ID_LENGTH, MAX_LABEL_LENGTH } from './prices.js';
import { FORM_FIELDS } from './scene-lists.js';

const TYPES = [
  ['text', 'Text'],
  ['email', 'E-mail address'],
  ['tel', 'Phone number'],
  ['number', 'Number'],
  ['textarea', 'Long text'],
  ['select', 'List to pick from'],
  ['checkbox', 'Checkbox'],
] as const;
const TEXT_TYPES = ['text', 'email', 'tel', 'textarea'];
const LENGTH_RULE = { name: 'Maximum length', min: 1, max: 100_000, integer: true };

/** The Form panel: the fields a shopper fills in with a request (docs/scene-format.md, "Form fields"). */
@customElement('editor-form-panel')
export class FormPanel extends PanelElement {
  private addField(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const input = form.elements.namedItem('label') as HTMLInputElement;
    const type = (form.elements.namedItem('type') as HTMLSelectElement).value;
    const label = input.value.trim();
    if (!label) return;
    const list = listAt(this.data, FORM_FIELDS);
    const id = uniqueSlug(label, idsOf(list), 'field', MAX_ID_LENGTH);
    input.value = '';
    const field: Json = { id, label, type };
    if (type === 'select') field.options = [{ value: 'option-1', label: 'Option 1' }];
    this.commit(FORM_FIELDS, [...list, field], `Add form field "${label}"`);
  }

  private optionsEditor(path: (string | number)[], name: string) {
    const optionsPath = [...path, 'options'];
    const options = listAt(this.data, optionsPath);
    return html`<fieldset class="wide">
      <legend>Options to pick from</legend>
      ${this.warningList(optionsPath, true)}
      ${options.map((_, i) => {
        const at = [...optionsPath, i];
        return html`<div class="grid" style="grid-template-columns: 1fr 1fr auto">
          ${this.textField({
            label: `Option ${i + 1} label`,
            path: [...at, 'label'],
            edit: `Rename option ${i + 1} of "${name}"`,
            maxLength: MAX_LABEL_LENGTH,
          })}
          ${this.textField({
            label: `Option ${i + 1} value`,
            path: [...at, 'value'],
            edit: `Change value of option ${i + 1} of "${name}"`,
            maxLength: MAX_LABEL_LENGTH,
          })}
          <div class="field" style="justify-content:flex-end">
            <span class="tools">
              <button
                type="button"
                ?disabled=${i === 0}
                aria-label="Move option ${i + 1} up"
                @click=${() =>
                  this.commit(optionsPath, moveItem(options, i, -1), `Move option ${i + 1} of "${name}" up`)}
              >
                ↑</button>
              <button
                type="button"
                ?disabled=${i === options.length - 1}
                aria-label="Move option ${i + 1} down"
                @click=${() =>
                  this.commit(optionsPath, moveItem(options, i, 1), `Move option ${i + 1} of "${name}" down`)}
              >
                ↓</button>
              <button
                type="button"
                class="danger"
                aria-label="Remove option ${i + 1}"
                @click=${() => this.commit(optionsPath, removeItem(options, i), `Remove option ${i + 1} of "${name}"`)}
              >
                ×</button>
            </span>
          </div>
        </div>`;
      })}
      <button type="button" @click=${() => {
        const n = options.length + 1;
        this.commit(
          optionsPath,
          [...options, { value: `option-${n}`, label: `Option ${n}` }],
          `Add an option to "${name}"`,
        );
      }}>Add an option</button>
    </fieldset>`;
  }

  private fieldCard(entry: unknown, i: number, list: unknown[]) {
    const path = [...FORM_FIELDS, i];
    const field = isRecord(entry) ? entry : {};
    const name = entryName(field, i, 'label');
    const type = typeof field.type === 'string' ? field.type : 'text';
    return html`<section class="card" aria-label="Field ${name}">
      <div class="card-head">
        <h3>${name}</h3>
        <span class="badge">${TYPES.find(([t]) => t === type)?.[1] ?? type}</span>
        ${field.required === true ? html`<span class="badge">required</span>` : nothing}
        ${this.warningCount(path)}
        ${this.listTools(FORM_FIELDS, list, i, `field ${name}`)}
      </div>
      ${this.warningList(path, true)}
      <div class="grid">
        ${this.textField({
          label: 'Label',
          path: [...path, 'label'],
          edit: `Rename field "${name}"`,
          maxLength: MAX_LABEL_LENGTH,
        })}
        ${this.selectField({
          label: 'Type',
          path: [...path, 'type'],
          edit: `Change type of "${name}"`,
          choices: TYPES,
          fallback: 'text',
        })}
        ${this.checkField({
          label: 'Required',
          path: [...path, 'required'],
          fallback: false,
          edit: `Change required of "${name}"`,
        })}
        ${
          TEXT_TYPES.includes(type)
            ? this.numberField({
                label: 'Maximum length',
                path: [...path, 'maxLength'],
                rule: LENGTH_RULE,
                edit: `Set maximum length of "${name}"`,
                help: 'Characters; empty: no limit.',
              })
            : nothing
        }
        ${
          type === 'number'
            ? html`${this.numberField({
                label: 'Minimum',
                path: [...path, 'min'],
                rule: amountRule('Minimum'),
                edit: `Set minimum of "${name}"`,
                placeholder: '0',
              })}
            ${this.numberField({
              label: 'Maximum',
              path: [...path, 'max'],
              rule: amountRule('Maximum'),
              edit: `Set maximum of "${name}"`,
              placeholder: '1000000',
            })}
            ${this.numberField({
              label: 'Step',
              path: [...path, 'step'],
              rule: { ...amountRule('Step'), min: 0, minExclusive: true },
              edit: `Set step of "${name}"`,
              placeholder: 'any',
            })}
            ${this.numberField({
              label: 'Default',
              path: [...path, 'default'],
              rule: amountRule('Default'),
              edit: `Set default of "${name}"`,
              help: 'Within the bounds; the price formula reads it until the shopper types.',
            })}`
            : nothing
        }
        ${type === 'select' ? this.optionsEditor(path, name) : nothing}
      </div>
      <details class="advanced">
        <summary>Advanced</summary>
        ${this.textField({
          label: 'Field id',
          path: [...path, 'id'],
          edit: `Change id of "${name}"`,
          maxLength: MAX_ID_LENGTH,
          help: 'Requests and the price formula name the field by this id.',
        })}
      </details>
    </section>`;
  }

  override render() {
    const list = listAt(this.data, FORM_FIELDS);
    return html`
      <p class="panel-intro muted">What the shopper fills in to send a request.</p>
      ${this.warningList(FORM_FIELDS, true)}
      ${list.length === 0 ? html`<p class="empty">No form field yet.</p>` : nothing}
      ${list.map((entry, i) => this.fieldCard(entry, i, list))}
      <form class="add-row card" @submit=${this.addField}>
        <label
        >
          New field label
          <input type="text" name="label" maxlength=${MAX_LABEL_LENGTH} required placeholder="Name" />
        </label>
        <label
        >
          New field type <select name="type">${TYPES.map(
            ([t, text]) => html`<option value=${t}>${text}</option>`,
          )}</select></label>
        <button type="submit" class="primary">Add field</button>
      </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-form-panel': FormPanel;
  }
}
