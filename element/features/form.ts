import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { FormField } from '#core/wire/form-fields.js';
import { format, type LoaderStrings } from './strings.js';

/**
 * The visitor's form fields (docs/scene-format.md, Form fields; other keys of that opaque JSON are ignored), checked
 * before sending by the server's own rules (server/core/wire/form-field-rules.ts) so the two never disagree on a field.
 */

export { readFormFields, type FormField } from '#core/wire/form-fields.js';

/** Reads the rendered form: answered fields only (numbers as numbers, unreadable ones NaN, checkboxes as booleans). */
export function formValues(form: HTMLFormElement, fields: FormField[]): Record<string, unknown> {
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
  return formData;
}

/** What the form shows. */
export interface FormView {
  strings: LoaderStrings;
  fields: FormField[];
  /** Field id → message, shown under the field. */
  errors: Record<string, string>;
  submitting: boolean;
  /** A preview: the button is disabled (the message says why). */
  disabled?: boolean;
  /** The outcome of the last submit, announced in the form's own live region. */
  message: string;
  onSubmit: () => void;
  /** Any field changed (number fields a price formula reads reprice at once). */
  onInput: (form: HTMLFormElement) => void;
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
        value=${ifDefined(field.default)}
        minlength=${ifDefined(field.minLength)}
        maxlength=${ifDefined(field.maxLength)}
        aria-invalid=${invalid}
        aria-describedby=${described}
      />`;
  }
}

/**
 * The form: the fields, each with its label and its error in place (option blocks live in the
 * configurator's panel). `novalidate`: the element checks by the server's rules and shows their messages.
 */
export function formTemplate({ strings, fields, errors, submitting, disabled, message, onSubmit, onInput }: FormView) {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return html`<form part="form" novalidate @submit=${submit} @input=${(event: Event) =>
    onInput(event.currentTarget as HTMLFormElement)} aria-busy=${submitting}>
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
    <button part="submit-button" type="submit" ?disabled=${submitting || disabled}>${
      submitting ? strings.submitting : strings.submit
    }</button>
    <p class="submit-status" role="status">${message}</p>
  </form>`;
}

/** The message for a required field left empty. */
export const requiredMessage = (strings: LoaderStrings, field: FormField) =>
  format(strings.fieldRequired, { label: field.label });
