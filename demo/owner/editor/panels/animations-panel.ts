import { html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { entryName, idsOf, isRecord, listAt, uniqueSlug, type Json } from './draft-edit.js';
import { outlineNames } from './outline-names.js';
import { PanelElement } from './panel-element.js';
import { MAX_ID_LENGTH, MAX_LABEL_LENGTH } from './prices.js';
import { ANIMATIONS, blockSummaries, idOf, modelChoices } from './scene-lists.js';
import './name-picker.js';
import { MAX_ANIMATION_BLOCKS as MAX_ANIMATIONS } from '#core/wire/configurator/parse-animations.js';

/** The speed range (docs/scene-format.md, "Animations"). */
const SPEED_RULE = { name: 'Speed', min: 0.1, max: 10 };
const TRIGGERS = [
  ['button', 'A button the shopper presses'],
  ['load', 'When the model has loaded'],
  ['choice', 'When a choice is selected'],
] as const;
const LOOPS = [
  ['once', 'Once, holding the last frame'],
  ['repeat', 'Repeat'],
  ['pingpong', 'Back and forth'],
] as const;

/** The Animations panel: clips of the models' outlines, played by a button, at load or by a choice. */
@customElement('editor-animations-panel')
export class AnimationsPanel extends PanelElement {
  private add() {
    const list = listAt(this.data, ANIMATIONS);
    const clip = outlineNames(this.outlines, null).animations[0]?.name ?? '';
    const name = clip || 'Animation';
    const id = uniqueSlug(name, idsOf(list), 'animation', MAX_ID_LENGTH);
    this.commit(ANIMATIONS, [...list, { id, name, clip, trigger: 'button' }], `Add animation "${name}"`);
  }

  private triggerFields(path: (string | number)[], animation: Json, name: string) {
    if (animation.trigger !== 'choice') return nothing;
    const blocks = blockSummaries(this.data);
    const on = isRecord(animation.on) ? animation.on : {};
    const block = blocks.find((entry) => entry.id === idOf({ id: on.blockId }));
    return html`${this.selectField({
      label: 'Block',
      path: [...path, 'on', 'blockId'],
      edit: `Change trigger block of "${name}"`,
      choices: [['', 'Choose a block…'], ...blocks.map((b): [string, string] => [b.id, b.name])],
    })}
      ${this.selectField({
        label: 'Choice',
        path: [...path, 'on', 'choiceId'],
        edit: `Change trigger choice of "${name}"`,
        choices: [['', 'Choose a choice…'], ...(block?.choices ?? []).map((c): [string, string] => [c.id, c.label])],
      })}`;
  }

  private card(entry: unknown, i: number, list: unknown[]) {
    const path = [...ANIMATIONS, i];
    const animation = isRecord(entry) ? entry : {};
    const name = entryName(animation, i);
    const model = animation.model !== undefined && animation.model !== null ? idOf({ id: animation.model }) : null;
    const clips = outlineNames(this.outlines, model);
    const clip = typeof animation.clip === 'string' ? animation.clip : '';
    const duration = clips.animations.find((entry) => entry.name === clip)?.duration;
    const loop = typeof animation.loop === 'string' ? animation.loop : 'once';
    return html`<section class="card" aria-label="Animation ${name}">
      <div class="card-head">
        <h3>${name}</h3>
        ${this.warningCount(path)}
        ${this.listTools(ANIMATIONS, list, i, `animation ${name}`)}
      </div>
      ${this.warningList(path, true)}
      <div class="grid">
        <div class="field">
          <label>
            Clip
            <select
              @change=${(event: Event) =>
                this.commit(
                  [...path, 'clip'],
                  (event.target as HTMLSelectElement).value || undefined,
                  `Change clip of "${name}"`,
                )}
            >
              ${
                clip && !clips.animations.some((c) => c.name === clip)
                  ? html`<option value=${clip} selected>${clip} (not in the model)</option>`
                  : nothing
              }
              ${clip ? nothing : html`<option value="" selected>Choose a clip…</option>`}
              ${clips.animations.map(
                (c) =>
                  html`<option value=${c.name} ?selected=${c.name === clip}>
                    ${c.name} (${c.duration.toFixed(1)} s)
                  </option>`,
              )}
            </select>
          </label>
          ${duration !== undefined ? html`<p class="help">Lasts ${duration.toFixed(1)} s at speed 1.</p>` : nothing}
          ${
            clip && clips.known && duration === undefined
              ? html`<p class="flag">⚠ “${clip}” is not an animation of this model.</p>`
              : nothing
          }
          ${clips.known ? nothing : html`<p class="help">No outline for this model yet: clips cannot be listed.</p>`}
          ${this.warningList([...path, 'clip'])}
        </div>
        ${this.textField({
          label: 'Name',
          path: [...path, 'name'],
          edit: `Rename animation "${name}"`,
          maxLength: MAX_LABEL_LENGTH,
          help: 'The button’s text.',
        })}
        ${this.selectField({
          label: 'Plays',
          path: [...path, 'trigger'],
          edit: `Change trigger of "${name}"`,
          choices: TRIGGERS,
        })}
        ${this.selectField({
          label: 'Model',
          path: [...path, 'model'],
          edit: `Change model of "${name}"`,
          choices: [['', 'The first model with this clip'], ...modelChoices(this.data)],
        })}
        ${this.triggerFields(path, animation, name)}
        ${this.selectField({
          label: 'Loop',
          path: [...path, 'loop'],
          edit: `Change loop of "${name}"`,
          choices: LOOPS,
          fallback: 'once',
        })}
        ${this.numberField({
          label: 'Speed',
          path: [...path, 'speed'],
          rule: SPEED_RULE,
          edit: `Set speed of "${name}"`,
          placeholder: '1',
          help: '0.1 to 10; 1 is the clip’s own speed.',
        })}
        ${this.checkField({
          label: 'Play backwards when the choice is left',
          path: [...path, 'reverse'],
          fallback: animation.trigger === 'choice' && loop === 'once',
          edit: `Change reverse of "${name}"`,
        })}
      </div>
      <details class="advanced">
        <summary>Advanced</summary>
        ${this.textField({
          label: 'Animation id',
          path: [...path, 'id'],
          edit: `Change id of "${name}"`,
          maxLength: MAX_ID_LENGTH,
        })}
      </details>
    </section>`;
  }

  override render() {
    const list = listAt(this.data, ANIMATIONS);
    return html`
      <p class="panel-intro muted">Play the models’ own clips: a door opening, a turn, a drawer.</p>
      ${this.warningList(ANIMATIONS, true)}
      ${list.length === 0 ? html`<p class="empty">No animation yet.</p>` : nothing}
      ${list.map((entry, i) => this.card(entry, i, list))}
      ${
        list.length < MAX_ANIMATIONS
          ? html`<button type="button" class="primary" @click=${() => this.add()}>Add an animation</button>`
          : nothing
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-animations-panel': AnimationsPanel;
  }
}
