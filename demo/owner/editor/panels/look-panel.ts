import { html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { DEFAULT_SETTINGS } from '#core/wire/configurator/default-settings.js';
import { USE_VIEW_EVENT } from '../editor-types.js';
import { isRecord } from './draft-edit.js';
import { PanelElement } from './panel-element.js';
import { SETTINGS } from './scene-lists.js';
import './cart-settings.js';

const at = (group: string, key: string) => [...SETTINGS, group, key];
const D = DEFAULT_SETTINGS;
const range = (name: string, min: number, max: number) => ({ name, min, max });
const DISTANCE = range('Distance', 0, Infinity);
const vectorText = (value: unknown) =>
  Array.isArray(value)
    ? value.map((n) => Number(n).toFixed(2)).join(', ')
    : isRecord(value)
      ? ['x', 'y', 'z'].map((axis) => Number(value[axis] ?? 0).toFixed(2)).join(', ')
      : '—';

/** The Look panel: branding, light, display, camera limits, AR, render quality, saved configurations and the cart. */
@customElement('editor-look-panel')
export class LookPanel extends PanelElement {
  private background() {
    const path = at('display', 'background');
    const transparent = this.get(path) === 'transparent';
    return html`<div class="field">
      <label class="check">
        <input type="checkbox" .checked=${transparent}
          @change=${(event: Event) =>
            this.commit(
              path,
              (event.target as HTMLInputElement).checked ? 'transparent' : undefined,
              'Change background',
            )} />
        Transparent background
      </label>
      ${
        transparent
          ? nothing
          : this.colourField({
              label: 'Background colour',
              path,
              edit: 'Set background colour',
              fallback: D.display.background,
            })
      }
    </div>`;
  }

  private cameraView() {
    const camera = this.data.camera;
    return html`<section class="card" aria-label="Starting view">
      <h3>Starting view</h3>
      <p class="help">
        Turn the live preview to the view the shopper should see first, then store it. With framing on, the shopper's
        view keeps its side and fits the product shown; off, it is exactly this view.
      </p>
      <div class="row">
        <button
          type="button"
          class="primary"
          @click=${() => this.dispatchEvent(new CustomEvent(USE_VIEW_EVENT, { bubbles: true, composed: true }))}
        >
          Use this view
        </button>
        ${
          camera
            ? html`<button type="button" @click=${() =>
                this.commit(['camera'], undefined, 'Clear the starting view')}>Clear</button>`
            : nothing
        }
      </div>
      ${
        camera
          ? html`<p>
            Camera at <code>${vectorText(camera.position)}</code>, looking at
            <code>${vectorText(camera.target)}</code>.
          </p>`
          : html`<p class="empty">None stored: the model is framed automatically.</p>`
      }
      ${this.checkField({
        label: 'Frame what is shown (the view keeps this side, the distance fits)',
        path: at('camera', 'fit'),
        fallback: D.camera.fit,
        edit: 'Change framing',
      })}
      ${this.warningList(['camera'])}
    </section>`;
  }

  override render() {
    return html`
      ${this.warningList(SETTINGS, true)}
      <section class="card" aria-label="Branding">
        <h3>Branding</h3>
        <div class="grid">
          ${this.colourField({
            label: 'Brand colour',
            path: at('branding', 'primaryColor'),
            edit: 'Set brand colour',
            fallback: D.branding.primaryColor,
            help: 'Buttons and selected choices.',
          })}
          ${this.textField({
            label: 'Logo URL',
            type: 'url',
            path: at('branding', 'logoUrl'),
            edit: 'Set logo',
            help: 'An https image.',
          })}
        </div>
        ${this.warningList([...SETTINGS, 'brandColor'])}
      </section>
      <section class="card" aria-label="Lighting">
        <h3>Lighting</h3>
        <div class="grid">
          ${this.selectField({
            label: 'Environment',
            path: at('lighting', 'environment'),
            edit: 'Change environment',
            choices: [
              ['room', 'Room reflections'],
              ['none', 'None'],
            ],
            fallback: D.lighting.environment,
          })}
          ${this.numberField({
            label: 'Environment intensity',
            path: at('lighting', 'environmentIntensity'),
            rule: range('Environment intensity', 0, 5),
            edit: 'Set environment intensity',
            placeholder: String(D.lighting.environmentIntensity),
            help: '0 to 5.',
          })}
          ${this.numberField({
            label: 'Exposure',
            path: at('lighting', 'exposure'),
            rule: range('Exposure', 0.1, 4),
            edit: 'Set exposure',
            placeholder: String(D.lighting.exposure),
            help: '0.1 to 4.',
          })}
          ${this.numberField({
            label: 'Key light',
            path: at('lighting', 'keyLight'),
            rule: range('Key light', 0, 10),
            edit: 'Set key light',
            placeholder: String(D.lighting.keyLight),
            help: '0 to 10.',
          })}
          ${this.selectField({
            label: 'Shadows',
            path: at('lighting', 'shadows'),
            edit: 'Change shadows',
            choices: [
              ['auto', 'Automatic (on at high quality)'],
              ['true', 'On'],
              ['false', 'Off'],
            ],
            fallback: 'auto',
            parse: (v) => (v === 'auto' ? 'auto' : v === 'true'),
          })}
          ${this.numberField({
            label: 'Shadow opacity',
            path: at('lighting', 'shadowOpacity'),
            rule: range('Shadow opacity', 0, 1),
            edit: 'Set shadow opacity',
            placeholder: String(D.lighting.shadowOpacity),
            help: '0 to 1.',
          })}
        </div>
      </section>
      <section class="card" aria-label="Display">
        <h3>Display</h3>
        <div class="grid">
          ${this.background()}
          <div>
            ${this.checkField({
              label: 'Turn slowly until touched',
              path: at('display', 'autoRotate'),
              fallback: D.display.autoRotate,
              edit: 'Change auto-rotate',
            })}
            ${this.checkField({
              label: 'Show the options',
              path: at('display', 'showOptions'),
              fallback: D.display.showOptions,
              edit: 'Change show options',
            })}
            ${this.checkField({
              label: 'Show the request form',
              path: at('display', 'showForm'),
              fallback: D.display.showForm,
              edit: 'Change show form',
            })}
          </div>
          ${this.selectField({
            label: 'Render quality',
            path: ['renderQuality'],
            edit: 'Change render quality',
            choices: [
              ['optimised', 'Optimised'],
              ['low', 'Low (fast phones)'],
              ['high', 'High (shadows)'],
            ],
            fallback: 'optimised',
          })}
          ${this.checkField({
            label: 'Shoppers can save and share a configuration',
            path: ['saveConfigEnabled'],
            fallback: false,
            edit: 'Change saved configurations',
          })}
        </div>
      </section>
      <section class="card" aria-label="Camera">
        <h3>Camera</h3>
        <div class="grid">
          ${this.numberField({
            label: 'Field of view (°)',
            path: at('camera', 'fov'),
            rule: range('Field of view', 10, 100),
            edit: 'Set field of view',
            placeholder: String(D.camera.fov),
            help: '10 to 100 degrees.',
          })}
          <div>
            ${this.checkField({
              label: 'Allow panning',
              path: at('camera', 'enablePan'),
              fallback: D.camera.enablePan,
              edit: 'Change panning',
            })}
            ${this.checkField({
              label: 'Allow zooming',
              path: at('camera', 'enableZoom'),
              fallback: D.camera.enableZoom,
              edit: 'Change zooming',
            })}
          </div>
          ${this.numberField({
            label: 'Closest distance',
            path: at('camera', 'minDistance'),
            rule: DISTANCE,
            edit: 'Set closest distance',
            placeholder: 'none',
          })}
          ${this.numberField({
            label: 'Farthest distance',
            path: at('camera', 'maxDistance'),
            rule: DISTANCE,
            edit: 'Set farthest distance',
            placeholder: 'none',
          })}
          ${this.numberField({
            label: 'Highest angle (°)',
            path: at('camera', 'minPolarAngle'),
            rule: range('Angle', 0, 180),
            edit: 'Set highest angle',
            placeholder: String(D.camera.minPolarAngle),
            help: '0 looks straight down.',
          })}
          ${this.numberField({
            label: 'Lowest angle (°)',
            path: at('camera', 'maxPolarAngle'),
            rule: range('Angle', 0, 180),
            edit: 'Set lowest angle',
            placeholder: String(D.camera.maxPolarAngle),
            help: '90 stops at the horizon; 180 looks up from below.',
          })}
        </div>
      </section>
      ${this.cameraView()}
      <section class="card" aria-label="Augmented reality">
        <h3>Augmented reality</h3>
        <div class="grid">
          ${this.checkField({
            label: 'Offer “View in your room”',
            path: at('ar', 'enabled'),
            fallback: D.ar.enabled,
            edit: 'Change AR',
          })}
          <span></span>
          ${this.selectField({
            label: 'Placement',
            path: at('ar', 'placement'),
            edit: 'Change AR placement',
            choices: [
              ['floor', 'On the floor'],
              ['wall', 'On a wall'],
            ],
            fallback: D.ar.placement,
          })}
          ${this.selectField({
            label: 'Scale',
            path: at('ar', 'scale'),
            edit: 'Change AR scale',
            choices: [
              ['auto', 'Shopper may resize'],
              ['fixed', 'True size only'],
            ],
            fallback: D.ar.scale,
          })}
        </div>
      </section>
      <editor-cart-settings .data=${this.data} .outlines=${this.outlines} .warnings=${this.warnings}
      ></editor-cart-settings>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-look-panel': LookPanel;
  }
}
