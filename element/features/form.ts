import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { FormField } from '../../server/core/wire/form-fields.js';
import { MAX_SUMMARY_CHARS } from '../../server/core/wire/submit-limits.js';
import { format, type ConfigShareStrings } from './strings.js';

/**
 * The visitor's form: the project's `formFields` and `optionBlocks` in the minimal shape of
 * contract section 3 (anything else in that opaque JSON is ignored) and the values a submit sends;
 * the server's own rules (server/core/wire/form-field-rules.ts) check them before sending.
 */

export { readFormFields, type FormField } from '../../server/core/wire/form-fields.js';

/** An option block: one choice per block, sent as `selectedOptions[block.id]`. */
export interface OptionBlock {
  id: string;
  name: string;
  choices: { id: string; label: string }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object';
const idOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The option blocks of `sceneData.optionBlocks` that have an id and at least one choice. */
export function readOptionBlocks(raw: unknown): OptionBlock[] {
  return (Array.isArray(raw) ? raw : []).filter(isRecord).flatMap((block) => {
    const choices = (Array.isArray(block.choices) ? block.choices : [])
      .filter(isRecord)
      .map((choice) => ({ id: idOf(choice.id), label: String(choice.label ?? choice.id ?? '') }))
      .filter((choice) => choice.id);
    const id = idOf(block.id);
    return id && choices.length > 0 ? [{ id, name: String(block.name ?? id), choices }] : [];
  });
}

/** What a submit sends from the form. */
export interface FormValues {
  formData: Record<string, unknown>;
  selectedOptions: Record<string, string>;
  configurationSummary: string;
}

/** Reads the rendered form: answered fields only (numbers as numbers, unreadable ones NaN, checkboxes as booleans). */
export function formValues(form: HTMLFormElement, fields: FormField[], blocks: OptionBlock[]): FormValues {
  const data = new FormData(form);
  const formData: Record<string, unknown> = {};
  for (const field of fields) {
    const value = data.get(field.id);
    if (field.type === 'checkbox') formData[field.id] = value !== null;
    else if (typeof value === 'string' && value !== '')
      formData[field.id] = field.type === 'number' && Number.isFinite(Number(value)) ? Number(value) : value;
    // What a number input cannot read reaches FormData as ''; NaN lets the rules say "Enter a number".
    else if ((form.elements.namedItem(field.id) as HTMLInputElement | null)?.validity?.badInput)
      formData[field.id] = NaN;
  }
  const selectedOptions: Record<string, string> = {};
  const summary: string[] = [];
  for (const block of blocks) {
    const choice = block.choices.find((candidate) => candidate.id === data.get(`option:${block.id}`));
    if (!choice) continue;
    selectedOptions[block.id] = choice.id;
    summary.push(`${block.name}: ${choice.label}`);
  }
  return { formData, selectedOptions, configurationSummary: summary.join('\n').slice(0, MAX_SUMMARY_CHARS) };
}

/** What the form shows. */
export interface FormView {
  strings: ConfigShareStrings;
  fields: FormField[];
  blocks: OptionBlock[];
  /** Field id → message, shown under the field. */
  errors: Record<string, string>;
  submitting: boolean;
  /** The outcome of the last submit, announced in the form's own live region. */
  message: string;
  onSubmit: () => void;
}

const requiredMark = html`<span aria-hidden="true"> *</span>`;

function control(field: FormField, id: string, error: string) {
  const described = error ? `${id}-error` : nothing;
  const invalid = error ? 'true' : 'false';
  switch (field.type) {
    case 'textarea':
      return html`<textarea
        id=${id}
        name=${field.id}
        ?required=${field.required}
        minlength=${ifDefined(field.minLength)}
        maxlength=${ifDefined(field.maxLength)}
        aria-invalid=${invalid}
        aria-describedby=${described}
      ></textarea>`;
    case 'select':
      return html`<select id=${id} name=${field.id} ?required=${field.required} aria-invalid=${invalid}
        aria-describedby=${described}>
        <option value=""></option>
        ${field.options.map((option) => html`<option value=${option.value}>${option.label}</option>`)}
      </select>`;
    default:
      return html`<input
        id=${id}
        name=${field.id}
        type=${field.type}
        ?required=${field.required}
        min=${ifDefined(field.min)}
        max=${ifDefined(field.max)}
        step=${ifDefined(field.step)}
        minlength=${ifDefined(field.minLength)}
        maxlength=${ifDefined(field.maxLength)}
        aria-invalid=${invalid}
        aria-describedby=${described}
      />`;
  }
}

/**
 * The form: option blocks as radio groups, then the fields, each with its label and its error in
 * place. `novalidate`: the element checks by the server's rules and shows their messages.
 */
export function formTemplate({ strings, fields, blocks, errors, submitting, message, onSubmit }: FormView) {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return html`<form part="form" novalidate @submit=${submit} aria-busy=${submitting}>
    ${
      blocks.length
        ? html`<fieldset class="options">
          <legend>${strings.optionsLegend}</legend>
          ${blocks.map(
            (block) => html`<fieldset>
              <legend>${block.name}</legend>
              ${block.choices.map(
                (choice, i) =>
                  html`<label><input type="radio" name=${`option:${block.id}`} value=${choice.id}
                    ?checked=${i === 0} /> ${choice.label}</label>`,
              )}
            </fieldset>`,
          )}
        </fieldset>`
        : nothing
    }
    ${
      fields.length
        ? html`<fieldset class="fields">
          <legend>${strings.formLegend}</legend>
          ${fields.map((field, index) => {
            // Ids by position: field ids come from the owner's JSON and need not be valid HTML ids.
            const id = `field-${index}`;
            const error = errors[field.id] ?? '';
            return html`<div class="field ${field.type}">
              <label for=${id}>${field.label}${field.required ? requiredMark : nothing}</label>
              ${control(field, id, error)}
              ${error ? html`<p id=${`${id}-error`} class="field-error">${error}</p>` : nothing}
            </div>`;
          })}
        </fieldset>`
        : nothing
    }
    <button part="submit-button" type="submit" ?disabled=${submitting}>${
      submitting ? strings.submitting : strings.submit
    }</button>
    <p class="submit-status" role="status">${message}</p>
  </form>`;
}

/** The message for a required field left empty. */
export const requiredMessage = (strings: ConfigShareStrings, field: FormField) =>
  format(strings.fieldRequired, { label: field.label });
