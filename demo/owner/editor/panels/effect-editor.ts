import { html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { isRecord, type Json } from './draft-edit.js';
import { PanelElement } from './panel-element.js';
import { outlineNames } from './outline-names.js';
import { idOf, modelChoices } from './scene-lists.js';

export const EFFECT_TYPES = [
  ['material', 'Material: colour, finish or texture'],
  ['visibility', 'Visibility: show or hide parts'],
  ['variant', 'Variant: a material variant of the file'],
  ['transform', 'Transform: move, turn or scale parts'],
] as const;

/** A new effect of `type` with what the parser requires filled in. */
export function newEffect(type: string): Json {
  if (type === 'visibility') return { type, visible: false };
  if (type === 'variant') return { type, name: '' };
  if (type === 'transform') return { type, nodes: [] };
  return { type, nodes: [] };
}

const FACTOR = (name: string) => ({ name, min: 0, max: 1 });
const ANY = (name: string) => ({ name, min: -Infinity, max: Infinity });
const VECTORS = [
  ['position', 'Position', 'Scene units, replacing the part’s own.'],
  ['rotation', 'Rotation', 'Radians, Euler XYZ.'],
  ['scale', 'Scale', '1 keeps the size.'],
] as const;

/** One effect of a choice (docs/scene-format.md, "Effects"); names are picked from the model's outline. */
@customElement('editor-effect')
export class EffectEditor extends PanelElement {
  @property({ attribute: false }) path: (string | number)[] = [];
  /** The block's target model id, or null (every model). */
  @property({ attribute: false }) blockModel: string | null = null;
  @property() subject = '';

  private get effect(): Json {
    const value = this.get(this.path);
    return isRecord(value) ? value : {};
  }

  private at(key: string | number, ...rest: (string | number)[]) {
    return [...this.path, key, ...rest];
  }

  private edit(what: string) {
    return `${what} (${this.subject})`;
  }

  private picker(key: string, label: string, kind: 'node' | 'material' | 'variant', multiple: boolean) {
    const effect = this.effect;
    const model = effect.model !== undefined && effect.model !== null ? idOf({ id: effect.model }) : this.blockModel;
    const names = outlineNames(this.outlines, model);
    const list =
      kind === 'node'
        ? names.nodes
        : (kind === 'material' ? names.materials : names.variants).map((name) => ({ name, depth: 0 }));
    return html`<editor-name-picker
        class=${multiple ? 'wide' : ''}
        label=${label}
        kind=${kind}
        ?multiple=${multiple}
        ?known=${names.known}
        .names=${list}
        .value=${effect[key] as string[] | string | undefined}
        @names-change=${(event: CustomEvent<string[] | string | undefined>) =>
          this.commit(this.at(key), event.detail, this.edit(`Set ${label.toLowerCase()}`))}
      ></editor-name-picker>
      ${this.warningList(this.at(key))}`;
  }

  private vector(key: string, label: string, help: string) {
    const raw = this.effect[key];
    const vector: Json = Array.isArray(raw) ? { x: raw[0], y: raw[1], z: raw[2] } : isRecord(raw) ? raw : {};
    return html`<fieldset class="wide">
      <legend>${label}</legend>
      <div class="grid" style="grid-template-columns: repeat(3, minmax(0, 1fr))">
        ${(['x', 'y', 'z'] as const).map((axis) => {
          return this.numberField({
            label: `${label} ${axis.toUpperCase()}`,
            path: this.at(key, axis),
            shown: vector[axis],
            // A stored [x,y,z] is written back as {x,y,z}, so one component can change.
            apply: (value) => {
              const next: Json = { ...vector, [axis]: value };
              if (value === undefined) delete next[axis];
              this.commit(
                this.at(key),
                Object.keys(next).length ? next : undefined,
                this.edit(`Set ${label.toLowerCase()} ${axis}`),
              );
            },
            rule: ANY(`${label} ${axis}`),
            edit: this.edit(`Set ${label.toLowerCase()} ${axis}`),
            placeholder: vector[axis] === undefined ? 'unchanged' : undefined,
          });
        })}
      </div>
      <p class="help">${help} Empty: the part keeps its own value.</p>
      ${this.warningList(this.at(key), true)}
    </fieldset>`;
  }

  private materialFields() {
    const effect = this.effect;
    const byMaterial = effect.material !== undefined;
    return html`<div class="field">
        <label>
          Change
          <select
            @change=${(event: Event) => {
              const toMaterial = (event.target as HTMLSelectElement).value === 'material';
              const { material: _m, nodes: _n, ...rest } = effect;
              this.commit(
                this.path,
                toMaterial ? { ...rest, material: '' } : { ...rest, nodes: [] },
                this.edit('Change target'),
              );
            }}
          >
            <option value="material" ?selected=${byMaterial}>A material wherever it is used</option>
            <option value="nodes" ?selected=${!byMaterial}>The material of some parts</option>
          </select>
        </label>
      </div>
      ${byMaterial ? this.picker('material', 'Material', 'material', false) : nothing}
      ${this.picker('use', 'Use material', 'material', false)}
      ${byMaterial ? nothing : this.picker('nodes', 'Parts (nodes)', 'node', true)}
      ${this.colourField({ label: 'Colour', path: this.at('color'), edit: this.edit('Set colour') })}
      ${this.textField({
        label: 'Texture URL',
        type: 'url',
        path: this.at('map'),
        edit: this.edit('Set texture'),
        help: 'https image, the base colour texture.',
      })}
      ${this.numberField({
        label: 'Roughness',
        path: this.at('roughness'),
        rule: FACTOR('Roughness'),
        edit: this.edit('Set roughness'),
        help: '0 glossy to 1 matte.',
      })}
      ${this.numberField({
        label: 'Metalness',
        path: this.at('metalness'),
        rule: FACTOR('Metalness'),
        edit: this.edit('Set metalness'),
        help: '0 to 1.',
      })}
      ${this.numberField({
        label: 'Opacity',
        path: this.at('opacity'),
        rule: FACTOR('Opacity'),
        edit: this.edit('Set opacity'),
        help: '0 invisible to 1 opaque.',
      })}`;
  }

  private typeFields(type: unknown) {
    switch (type) {
      case 'material':
        return this.materialFields();
      case 'visibility':
        return html`${this.checkField({
          label: 'Visible',
          path: this.at('visible'),
          fallback: false,
          edit: this.edit('Set visibility'),
          help: 'Unchecked hides the parts.',
        })}
          ${this.picker('nodes', 'Parts (nodes)', 'node', true)}
          <p class="help wide">No part picked: the whole model.</p>`;
      case 'variant':
        return this.picker('name', 'Variant', 'variant', false);
      case 'transform':
        return html`${this.picker('nodes', 'Parts (nodes)', 'node', true)}
        ${VECTORS.map(([key, label, help]) => this.vector(key, label, help))}`;
      default:
        return html`<p class="flag wide">⚠ Unknown effect type "${String(type)}": the configurator ignores it.</p>`;
    }
  }

  override render() {
    const effect = this.effect;
    return html`<div class="grid">
      <div class="field">
        <label>
          Effect type
          <select
            @change=${(event: Event) => {
              const type = (event.target as HTMLSelectElement).value;
              const kept = Object.fromEntries(
                Object.entries(effect).filter(
                  ([key]) =>
                    ![
                      'type',
                      'material',
                      'nodes',
                      'use',
                      'color',
                      'roughness',
                      'metalness',
                      'opacity',
                      'map',
                      'visible',
                      'name',
                      'position',
                      'rotation',
                      'scale',
                    ].includes(key),
                ),
              );
              this.commit(this.path, { ...kept, ...newEffect(type) }, this.edit(`Make a ${type} effect`));
            }}
          >
            ${EFFECT_TYPES.map(
              ([value, text]) => html`<option value=${value} ?selected=${effect.type === value}>${text}</option>`,
            )}
          </select>
        </label>
        ${this.warningList(this.at('type'))}
      </div>
      ${this.selectField({
        label: 'Model',
        path: this.at('model'),
        edit: this.edit('Set effect model'),
        choices: [
          ['', this.blockModel === null ? 'Every model' : "The block's target model"],
          ...modelChoices(this.data),
        ],
      })}
      ${this.typeFields(effect.type)}
      <div class="wide">${this.warningList(this.path, true)}</div>
    </div>`;
  }
}
