import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import { ref } from 'lit/directives/ref.js';
import {
  choiceDelta,
  type Choice,
  type OptionBlock,
  type ResolvedOptions,
  type Scene,
} from '#core/wire/configurator/index.js';
import { format, type ConfigShareStrings } from '../features/strings.js';

/** What the options panel shows, and where a visitor's choice goes. */
export interface OptionsPanelView {
  scene: Scene;
  resolved: ResolvedOptions;
  strings: ConfigShareStrings;
  /** Formats a choice's price delta (`+€40.00`); null when deltas are not shown. */
  delta: ((amount: number) => string) | null;
  onChange: (blockId: string, choiceId: string) => void;
}

/** A swatch's face: its thumbnail, else its colour (decoration: the name shows beside it and names the radio). */
function swatchFace(choice: Choice) {
  if (choice.thumbnail) return html`<img class="face" src=${choice.thumbnail} alt="" />`;
  // Through the CSSOM: a page whose CSP refuses inline styles (style-src 'self') still gets the colour.
  const colour = choice.color;
  if (colour)
    return html`<span class="face" ${ref((el) => el && ((el as HTMLElement).style.background = colour))}></span>`;
  return nothing;
}

function deltaOf(view: OptionsPanelView, choice: Choice) {
  const amount = view.delta ? choiceDelta(view.scene, choice) : null;
  return amount !== null && view.delta ? html`<span class="delta">${view.delta(amount)}</span>` : nothing;
}

/**
 * A `choice` or `swatch` block as a WAI-ARIA radio group of native radios; `repeat` keys them by choice so a rule
 * hiding one never hands its focused input to the next.
 */
function radioGroup(view: OptionsPanelView, block: OptionBlock) {
  const state = view.resolved.blocks[block.id];
  const selected = view.resolved.options[block.id];
  const shown = block.choices.filter((choice) => !state?.hidden.includes(choice.id));
  const swatch = block.type === 'swatch';
  return html`<fieldset part="option-block" role="radiogroup" class=${block.type} data-block=${block.id}>
    <legend>${block.name}</legend>
    ${repeat(
      shown,
      (choice) => choice.id,
      (choice) => {
        const disabled = !!state?.disabled.includes(choice.id);
        const label = disabled ? format(view.strings.choiceUnavailable, { label: choice.label }) : choice.label;
        const face = swatch ? swatchFace(choice) : nothing;
        const delta = deltaOf(view, choice);
        return html`<label part="choice" class=${face === nothing ? '' : 'has-face'}>
          <input
            type="radio"
            name=${`option:${block.id}`}
            value=${choice.id}
            .checked=${live(selected === choice.id)}
            ?disabled=${disabled}
            @change=${() => view.onChange(block.id, choice.id)}
          />${face}<span class="text">${label}</span><span class="check" aria-hidden="true">✓</span>${delta}</label
        >`;
      },
    )}
  </fieldset>`;
}

/** A `toggle` block: a switch labelled with the block's name; off is the first choice, on the second. */
function toggle(view: OptionsPanelView, block: OptionBlock) {
  const [off, on] = block.choices;
  const state = view.resolved.blocks[block.id];
  const checked = view.resolved.options[block.id] === on.id;
  const target = checked ? off : on;
  const locked = !!state?.disabled.includes(target.id) || !!state?.hidden.includes(target.id);
  return html`<fieldset part="option-block" class="toggle" data-block=${block.id}>
    <label part="choice">
      <input
        type="checkbox"
        role="switch"
        name=${`option:${block.id}`}
        value=${on.id}
        .checked=${live(checked)}
        ?disabled=${locked}
        @change=${(event: Event) => {
          const input = event.target as HTMLInputElement;
          view.onChange(block.id, input.checked ? on.id : off.id);
        }}
      /><span class="text">${block.name}</span>${deltaOf(view, on)}</label
    >
  </fieldset>`;
}

/** The options panel (`part="options"`): each active block, in block order. */
export function optionsPanel(view: OptionsPanelView) {
  const blocks = view.scene.optionBlocks.filter((block) => view.resolved.blocks[block.id]?.active);
  if (blocks.length === 0) return nothing;
  return html`<section part="options" aria-label=${view.strings.optionsLegend}>
    ${repeat(
      blocks,
      (block) => block.id,
      (block) => (block.type === 'toggle' ? toggle(view, block) : radioGroup(view, block)),
    )}
  </section>`;
}
