import type { CartSettings } from '#core/wire/configurator/index.js';
import type { CartBody, CartRefusal, CartResult } from '../features/cart-request.js';
import { rememberedPassword } from '../features/password.js';
import { format, type ConfigShareStrings } from '../features/strings.js';
import { cartControls, clampQuantity } from './cart-controls.js';
import { emitFrom, type ConfiguratorHost } from './host.js';

/** How long the button reads "Added" after an add the page handles. */
const ADDED_MS = 2000;
/** A `Retry-After` up to this is waited out and the add tried again by itself; a longer one asks for a new click. */
const MAX_AUTO_WAIT_S = 60;
/** Tries of one click, the first included, while the server answers 429. */
const MAX_TRIES = 3;

/** What the cart sends from the configurator: the selections and the saved configuration's text (docs/cart.md). */
export interface CartSelection {
  options: Record<string, string>;
  fields?: Record<string, number>;
  configuration: string;
}

type CartChunk = typeof import('../features/cart.js');
/** The cart's chunk, fetched once per page when a cart button first shows. */
let chunk: Promise<CartChunk | null> | undefined;
const cartChunk = () =>
  (chunk ??= import('../features/cart.js').catch(() => {
    chunk = undefined; // a later click fetches it again
    return null;
  }));

const refusalText = (strings: ConfigShareStrings, refusal: CartRefusal, reason?: string): string => {
  switch (refusal) {
    case 'offline':
      return strings.cartOffline;
    case 'invalid':
      return reason ? format(strings.cartInvalid, { reason }) : strings.cartFailed;
    case 'disabled':
      return strings.cartDisabled;
    case 'not-configured':
      return strings.cartNotConfigured;
    case 'unavailable':
      return strings.cartUnavailable;
    default:
      return strings.cartFailed;
  }
};

/**
 * The add-to-cart hand-off of one payload (docs/cart.md): the quantity, the button's states, creating the
 * configuration with a picture, the `config-share-add-to-cart` event, and the form POST to the cart's `action`.
 */
export class Cart {
  private quantity = 1;
  private busy = false;
  private added = false;
  private message = '';
  private error = false;
  /** While a `Retry-After` is waited out, the button takes no click. */
  private waiting = false;
  private addedTimer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly host: ConfiguratorHost,
    private readonly settings: CartSettings,
    private readonly strings: () => ConfigShareStrings,
    private readonly selection: () => CartSelection,
  ) {
    // Fetched ahead, so a click does not wait for the chunk (a preview never sends: it needs none).
    if (!host.element.previewing) void cartChunk();
  }

  private show(message: string, error = false) {
    this.message = message;
    this.error = error;
    this.host.element.requestUpdate();
  }

  render() {
    const strings = this.strings();
    const previewing = this.host.element.previewing;
    return cartControls({
      strings,
      label: this.settings.label,
      quantity: this.settings.quantity ? this.quantity : null,
      busy: this.busy,
      added: this.added,
      disabled: previewing || this.waiting,
      message: previewing ? strings.cartPreviewNote : this.message,
      error: this.error,
      onQuantity: (quantity) => {
        this.quantity = clampQuantity(quantity);
        this.host.element.requestUpdate();
      },
      onAdd: () => void this.add(),
    });
  }

  /** A click: creates the configuration and hands it to the page, or says why not. Never throws. */
  private async add() {
    const { host } = this;
    if (this.busy || this.waiting || host.element.previewing) return;
    const strings = this.strings();
    const quantity = this.settings.quantity ? this.quantity : 1;
    const { configuration: saved, ...selection } = this.selection();
    this.busy = true;
    clearTimeout(this.addedTimer);
    this.added = false;
    this.show('');
    try {
      const cart = await cartChunk();
      if (!cart) return this.fail(strings.cartFailed);
      const viewer = await host.viewer();
      const screenshot = viewer ? cart.cartScreenshot(viewer.capture()) : null;
      const body: CartBody = { ...selection, quantity, ...(screenshot ? { screenshot } : {}) };
      const result = await this.create(cart, body, strings);
      if (result.kind !== 'ok') return;
      const editUrl = `${location.href.split('#')[0]}#cs=${saved}`;
      const detail = { configuration: result.configuration, token: result.token, quantity, editUrl };
      if (!emitFrom(host.element, 'config-share-add-to-cart', detail, true)) return this.show('');
      const { action } = this.settings;
      if (action) {
        cart.postToCart(action, {
          config_share_token: result.token,
          config_share_id: result.configuration.id,
          quantity: String(quantity),
          edit_url: editUrl,
        });
        return;
      }
      this.added = true;
      this.show(strings.cartAddedStatus);
      this.addedTimer = setTimeout(() => {
        this.added = false;
        this.show('');
      }, ADDED_MS);
    } finally {
      this.busy = false;
      host.element.requestUpdate();
    }
  }

  /** The POST, waiting out each 429's `Retry-After` (shown, counting down) before trying again. */
  private async create(cart: CartChunk, body: CartBody, strings: ConfigShareStrings): Promise<CartResult> {
    const { target } = this.host;
    for (let tries = 1; ; tries++) {
      const result = await cart.postConfiguration(target, body, rememberedPassword(target));
      if (result.kind === 'refused') this.fail(refusalText(strings, result.refusal, result.reason));
      if (result.kind !== 'wait') return result;
      if (result.seconds > MAX_AUTO_WAIT_S || tries >= MAX_TRIES) {
        this.fail(format(strings.cartTooMany, { seconds: result.seconds }));
        // The button comes back once the wait is over; this click ends here.
        void this.waitOut(result.seconds, strings.cartTooMany, true);
        return result;
      }
      await this.waitOut(result.seconds, strings.cartWaiting, false);
    }
  }

  /** Counts `seconds` down in the status line (`{seconds}` in `text`), the button disabled meanwhile. */
  private async waitOut(seconds: number, text: string, error: boolean) {
    this.waiting = true;
    const end = Date.now() + seconds * 1000;
    for (let left = seconds; left > 0; left = Math.ceil((end - Date.now()) / 1000)) {
      this.show(format(text, { seconds: left }), error);
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, end - Date.now())));
    }
    this.waiting = false;
    this.show('');
  }

  private fail(message: string) {
    this.show(message, true);
    emitFrom(this.host.element, 'config-share-error', { type: 'cart', message });
  }
}
