import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { isRecord } from './draft-edit.js';
import { PanelElement } from './panel-element.js';
import { blockSummaries } from './scene-lists.js';
import { MAX_WHEN_BLOCKS } from '#core/wire/configurator/when.js';

/**
 * Edits a `when` (rules, pricing blocks, formula steps): block = one or more of its choices, every condition
 * must hold. `before` limits the offered blocks to those before that index (a rule names only earlier blocks).
 * No condition left removes the key.
 */
@customElement('editor-when')
export class WhenEditor extends PanelElement {
  @property({ attribute: false }) path: (string | number)[] = [];
  @property({ type: Number }) beforeIndex = Infinity;
  /** What the edits are about, for undo labels: 'rule 1 of "Legs"'. */
  @property() subject = '';

  private get when(): Record<string, unknown> {
    const value = this.get(this.path);
    return isRecord(value) ? value : {};
  }

  private write(next: Record<string, unknown>, label: string) {
    this.commit(this.path, Object.keys(next).length ? next : undefined, `${label} (${this.subject})`);
  }

  override render() {
    const offered = blockSummaries(this.data).filter((block) => block.index < this.beforeIndex);
    const when = this.when;
    const entries = Object.entries(when);
    const unused = offered.filter((block) => !Object.hasOwn(when, block.id));
    return html`<fieldset>
      <legend>When</legend>
      ${entries.length === 0 ? html`<p class="empty">Always (no condition).</p>` : nothing}
      ${entries.map(([blockId, listed]) => {
        const chosen = (Array.isArray(listed) ? listed : [listed]).map(String);
        const block = offered.find((entry) => entry.id === blockId);
        const setChoices = (choices: string[]) =>
          this.write(
            { ...when, [blockId]: choices.length === 1 ? choices[0] : choices },
            `Change condition on "${block?.name ?? blockId}"`,
          );
        return html`<div class="card nested">
          <div class="card-head">
            <h5>${block ? block.name : blockId} is one of</h5>
            <button
              type="button"
              class="small danger"
              aria-label="Remove condition on ${block?.name ?? blockId}"
              @click=${() => {
                const { [blockId]: _gone, ...rest } = when;
                this.write(rest, `Remove condition on "${block?.name ?? blockId}"`);
              }}
            >
              Remove condition
            </button>
          </div>
          ${
            block
              ? html`<div class="picker" role="group" aria-label="Choices of ${block.name} in this condition">
                ${block.choices.map(
                  (choice) =>
                    html`<label>
                      <input
                        type="checkbox"
                        .checked=${chosen.includes(choice.id)}
                        @change=${(event: Event) =>
                          setChoices(
                            (event.target as HTMLInputElement).checked
                              ? [...chosen, choice.id]
                              : chosen.filter((id) => id !== choice.id),
                          )}
                      />
                      ${choice.label}
                    </label>`,
                )}
              </div>`
              : html`<p class="flag">⚠ No earlier block "${blockId}": this condition is ignored.</p>`
          }
          ${this.warningList(`${this.path.join('.')}.${blockId}`)}
        </div>`;
      })}
      ${
        unused.length && entries.length < MAX_WHEN_BLOCKS
          ? html`<label class="check">
            Add a condition on
            <select
              aria-label="Add a condition on block"
              @change=${(event: Event) => {
                const select = event.target as HTMLSelectElement;
                const block = offered.find((entry) => entry.id === select.value);
                select.value = '';
                if (block && block.choices[0]) {
                  this.write({ ...when, [block.id]: block.choices[0].id }, `Add condition on "${block.name}"`);
                }
              }}
            >
              <option value="">Choose a block…</option>
              ${unused.map((block) => html`<option value=${block.id}>${block.name}</option>`)}
            </select>
          </label>`
          : offered.length === 0
            ? html`<p class="help">Conditions name earlier option blocks; there are none.</p>`
            : nothing
      }
      ${this.warningList(this.path, true)}
    </fieldset>`;
  }
}
