import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ConfigShareStrings } from '../features/strings.js';

/** The stepper's range (docs/scene-format.md, `cart.quantity`). */
const MIN_QUANTITY = 1;
const MAX_QUANTITY = 99;

/** A typed quantity as a whole number within the stepper's range (empty or unreadable: 1). */
export const clampQuantity = (value: unknown): number =>
  Math.min(MAX_QUANTITY, Math.max(MIN_QUANTITY, Math.round(Number(value)) || MIN_QUANTITY));

/** What the cart controls show. */
export interface CartControlsView {
  strings: ConfigShareStrings;
  label: string;
  /** Null: no stepper (`cart.quantity: false`), one unit. */
  quantity: number | null;
  /** The configuration is being created: the button is disabled and `aria-busy`. */
  busy: boolean;
  /** The button reads `cartAdded` (for 2 s after an add the page handles). */
  added: boolean;
  /** No click is taken (a preview, or a `Retry-After` being waited out). */
  disabled: boolean;
  /** The line beside the button: progress, a wait, what went wrong; `error` styles it as one. */
  message: string;
  error: boolean;
  onQuantity: (quantity: number) => void;
  onAdd: () => void;
}

function stepper({ strings, quantity, onQuantity }: CartControlsView & { quantity: number }) {
  return html`<div part="quantity" role="group" aria-label=${strings.cartQuantity}>
    <button
      type="button"
      class="step"
      aria-label=${strings.cartFewer}
      ?disabled=${quantity <= MIN_QUANTITY}
      @click=${() => onQuantity(quantity - 1)}
    >−</button>
    <input
      type="number"
      inputmode="numeric"
      min=${MIN_QUANTITY}
      max=${MAX_QUANTITY}
      step="1"
      aria-label=${strings.cartQuantity}
      .value=${live(String(quantity))}
      @change=${(event: Event) => onQuantity(clampQuantity((event.target as HTMLInputElement).value))}
    />
    <button
      type="button"
      class="step"
      aria-label=${strings.cartMore}
      ?disabled=${quantity >= MAX_QUANTITY}
      @click=${() => onQuantity(quantity + 1)}
    >+</button>
  </div>`;
}

/**
 * The quantity stepper and `part="cart-button"`, with one polite status line beside them (what is happening, or
 * what went wrong in the shopper's words).
 */
export function cartControls(view: CartControlsView) {
  const { strings, busy, added } = view;
  return html`<div class="cart">
    <div class="cart-row">
      ${view.quantity === null ? nothing : stepper({ ...view, quantity: view.quantity })}
      <button
        type="button"
        part="cart-button"
        class=${added ? 'added' : ''}
        ?disabled=${busy || view.disabled}
        aria-busy=${busy ? 'true' : 'false'}
        @click=${view.onAdd}
      >${busy ? strings.cartAdding : added ? strings.cartAdded : view.label}</button>
    </div>
    <p class="cart-status ${view.error ? 'error' : ''}" role="status">${view.message}</p>
  </div>`;
}
