import { html, nothing } from 'lit';
import type { AnimationBlock } from '#core/wire/configurator/index.js';

/** What the animation buttons show. */
export interface AnimationButtonsView {
  animations: AnimationBlock[];
  /** Repeat and pingpong animations that are playing. */
  pressed: ReadonlySet<string>;
  onClick: (animation: AnimationBlock) => void;
}

/**
 * One real button per `button` trigger (docs/scene-format.md, Animation blocks), named by the block: `once` plays from
 * the start on every click; `repeat` and `pingpong` toggle play and pause, their state in `aria-pressed`.
 */
export function animationButtons({ animations, pressed, onClick }: AnimationButtonsView) {
  const buttons = animations.filter((animation) => animation.trigger === 'button');
  if (buttons.length === 0) return nothing;
  return html`<div class="animations">
    ${buttons.map(
      (animation) =>
        html`<button
          type="button"
          part="animation-button"
          aria-pressed=${animation.loop === 'once' ? nothing : String(pressed.has(animation.id))}
          @click=${() => onClick(animation)}
        >${animation.name}</button>`,
    )}
  </div>`;
}
