import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import {
  editEvent,
  warningsAt,
  type OutlinesByModel,
  type ProjectDataDraft,
  type SceneWarning,
} from '../editor-types.js';
import { getIn, moveItem, removeItem, setIn, type Path } from './draft-edit.js';
import { editorStyles } from './editor-styles.js';
import { readNumberText, type NumberRule } from './number-rule.js';

interface FieldOptions {
  label: string;
  path: Path;
  /** The undo label of the edit: "Rename block \"Seat\"". */
  edit: string;
  help?: string;
  wide?: boolean;
}

/**
 * What every panel and sub-editor shares: the editor interface's properties (docs/owner-console.md, "The editor"),
 * one edit event per committed change, inline number rules and the warnings beside the control they concern.
 */
export class PanelElement extends LitElement {
  static override styles = editorStyles;

  @property({ attribute: false }) data!: ProjectDataDraft;
  @property({ attribute: false }) outlines: OutlinesByModel = {};
  @property({ attribute: false }) warnings: SceneWarning[] = [];
  /** Typed numbers that broke their rule, by dotted path: the text stays so the owner can correct it. */
  @state() protected errors: Record<string, { text: string; message: string }> = {};

  protected get(path: Path): unknown {
    return getIn(this.data, path);
  }

  /** Announces one edit: the whole next data, `value` at `path` (undefined removes the key). */
  protected commit(path: Path, value: unknown, label: string) {
    this.commitData(setIn(this.data, path, value), label);
  }

  protected commitData(next: ProjectDataDraft, label: string) {
    this.dispatchEvent(editEvent({ data: next, label }));
  }

  /** Move up, Move down and Remove for entry `index` of `count`, named `what` in their labels; `extra` goes first. */
  protected orderTools(
    what: string,
    index: number,
    count: number,
    act: (action: 'up' | 'down' | 'remove') => void,
    extra: TemplateResult | typeof nothing = nothing,
  ) {
    return html`<span class="tools">
      ${extra}
      <button type="button" ?disabled=${index === 0} aria-label="Move ${what} up" @click=${() => act('up')}>
        Move up</button>
      <button type="button" ?disabled=${index === count - 1} aria-label="Move ${what} down" @click=${() => act('down')}>
        Move down</button>
      <button type="button" class="danger" aria-label="Remove ${what}" @click=${() => act('remove')}>Remove</button>
    </span>`;
  }

  /** The order tools of entry `i` of the list at `path`: each button is one edit; Remove asks first. */
  protected listTools(path: Path, list: unknown[], i: number, what: string) {
    return this.orderTools(what, i, list.length, (action) => {
      if (action !== 'remove') this.commit(path, moveItem(list, i, action === 'up' ? -1 : 1), `Move ${what} ${action}`);
      else if (confirm(`Remove ${what}?`)) this.commit(path, removeItem(list, i), `Remove ${what}`);
    });
  }

  protected warningList(path: Path | string, exact = false): TemplateResult | typeof nothing {
    const dotted = typeof path === 'string' ? path : path.join('.');
    const found = exact ? this.warnings.filter((w) => w.path === dotted) : warningsAt(this.warnings, dotted);
    if (found.length === 0) return nothing;
    return html`<ul class="warnings" aria-label="Warnings">
      ${found.map(
        (w) =>
          html`<li>
            ${w.message}${w.suggestions?.length ? html` Did you mean ${w.suggestions.join(', ')}?` : nothing}
          </li>`,
      )}
    </ul>`;
  }

  protected warningCount(path: Path): TemplateResult | typeof nothing {
    const count = warningsAt(this.warnings, path.join('.')).length;
    return count === 0 ? nothing : html`<span class="count">${count} warning${count === 1 ? '' : 's'}</span>`;
  }

  private help(text?: string) {
    return text ? html`<p class="help">${text}</p>` : nothing;
  }

  // Text inputs bind `.value` without `live()`: a re-render while the owner types (the preview's warnings arriving)
  // must not wipe what is typed and not yet committed.
  protected textField(
    options: FieldOptions & {
      type?: 'text' | 'url';
      maxLength?: number;
      placeholder?: string;
      transform?: (t: string) => string;
      /** The rule a typed text must meet: a message naming it, or null. Broken, the text stays and nothing is saved. */
      check?: (text: string) => string | null;
    },
  ) {
    const value = this.get(options.path);
    const key = options.path.join('.');
    const error = this.errors[key];
    return html`<div class="field ${options.wide ? 'wide' : ''}">
      <label>
        ${options.label}
        <input
          type=${options.type ?? 'text'}
          .value=${error ? error.text : typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
          maxlength=${options.maxLength ?? nothing}
          placeholder=${options.placeholder ?? nothing}
          aria-invalid=${error ? 'true' : 'false'}
          @change=${(event: Event) => {
            const raw = (event.target as HTMLInputElement).value.trim();
            const text = options.transform ? options.transform(raw) : raw;
            const message = text === '' ? null : (options.check?.(text) ?? null);
            if (message) {
              this.errors = { ...this.errors, [key]: { text: raw, message } };
              return;
            }
            const { [key]: _gone, ...rest } = this.errors;
            this.errors = rest;
            this.commit(options.path, text === '' ? undefined : text, options.edit);
          }}
        />
      </label>
      ${error ? html`<p class="error" role="alert">${error.message}</p>` : this.help(options.help)}
      ${this.warningList(options.path)}
    </div>`;
  }

  /** A number typed as text and checked against `rule` on change; `scale` shows 0.19 as 19 (a percentage). */
  protected numberField(
    options: FieldOptions & {
      rule: NumberRule;
      scale?: number;
      placeholder?: string;
      /** The stored value when it is not at `path` (a vector written as a list). */
      shown?: unknown;
      /** Writes the value instead of setting it at `path`. */
      apply?: (value: number | undefined) => void;
    },
  ) {
    const key = options.path.join('.');
    const error = this.errors[key];
    const scale = options.scale ?? 1;
    const stored = 'shown' in options ? options.shown : this.get(options.path);
    const shown = typeof stored === 'number' ? String(Number((stored * scale).toPrecision(12))) : '';
    return html`<div class="field ${options.wide ? 'wide' : ''}">
      <label>
        ${options.label}
        <input
          type="text"
          inputmode="decimal"
          .value=${error ? error.text : shown}
          placeholder=${options.placeholder ?? nothing}
          aria-invalid=${error ? 'true' : 'false'}
          @change=${(event: Event) => {
            const text = (event.target as HTMLInputElement).value;
            const reading = readNumberText(text, options.rule);
            if (!reading.ok) {
              this.errors = { ...this.errors, [key]: { text, message: reading.message } };
              return;
            }
            const { [key]: _gone, ...rest } = this.errors;
            this.errors = rest;
            const value = reading.value === undefined ? undefined : Number((reading.value / scale).toPrecision(12));
            if (value === stored) return;
            if (options.apply) options.apply(value);
            else this.commit(options.path, value, options.edit);
          }}
        />
      </label>
      ${error ? html`<p class="error" role="alert">${error.message}.</p>` : this.help(options.help)}
      ${this.warningList(options.path)}
    </div>`;
  }

  /** A checkbox; when unchecked equals `fallback` nothing changes in the stored value's absence. */
  protected checkField(options: FieldOptions & { fallback: boolean }) {
    const value = this.get(options.path);
    const checked = typeof value === 'boolean' ? value : options.fallback;
    return html`<div class="field ${options.wide ? 'wide' : ''}">
      <label class="check">
        <input
          type="checkbox"
          .checked=${live(checked)}
          @change=${(event: Event) =>
            this.commit(options.path, (event.target as HTMLInputElement).checked, options.edit)}
        />
        ${options.label}
      </label>
      ${this.help(options.help)} ${this.warningList(options.path)}
    </div>`;
  }

  /** A select; the empty value removes the key (its default applies). */
  protected selectField(
    options: FieldOptions & {
      choices: readonly (readonly [string, string])[];
      parse?: (v: string) => unknown;
      /** Shown when the key is absent. */
      fallback?: string;
    },
  ) {
    const value = this.get(options.path);
    const current = value === undefined || value === null ? (options.fallback ?? '') : String(value);
    const known = options.choices.some(([v]) => v === current);
    return html`<div class="field ${options.wide ? 'wide' : ''}">
      <label>
        ${options.label}
        <select
          @change=${(event: Event) => {
            const v = (event.target as HTMLSelectElement).value;
            this.commit(options.path, v === '' ? undefined : options.parse ? options.parse(v) : v, options.edit);
          }}
        >
          ${known ? nothing : html`<option value=${current} selected>${current} (not valid)</option>`}
          ${options.choices.map(([v, text]) => html`<option value=${v} ?selected=${v === current}>${text}</option>`)}
        </select>
      </label>
      ${this.help(options.help)} ${this.warningList(options.path)}
    </div>`;
  }

  /** A colour input with a Clear button (no colour: the key is removed). */
  protected colourField(options: FieldOptions & { fallback?: string }) {
    const value = this.get(options.path);
    const colour = typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : undefined;
    const short = typeof value === 'string' && /^#[0-9a-f]{3}$/i.test(value) ? value : undefined;
    const shown =
      colour ?? (short ? `#${[...short.slice(1)].map((d) => d + d).join('')}` : (options.fallback ?? '#000000'));
    return html`<div class="field ${options.wide ? 'wide' : ''}">
      <span class="label">${options.label}</span>
      <span class="colour">
        <input
          type="color"
          aria-label=${options.label}
          .value=${shown}
          @change=${(event: Event) => this.commit(options.path, (event.target as HTMLInputElement).value, options.edit)}
        />
        <span
          class="muted"
        >
          ${value === undefined ? (options.fallback ? `Default ${options.fallback}` : 'None') : String(value)}</span>
        ${
          value === undefined
            ? nothing
            : html`<button type="button" class="small" aria-label="Clear ${options.label}" @click=${() =>
                this.commit(options.path, undefined, `Clear ${options.label.toLowerCase()}`)}>
              Clear
            </button>`
        }
      </span>
      ${this.help(options.help)} ${this.warningList(options.path)}
    </div>`;
  }
}
