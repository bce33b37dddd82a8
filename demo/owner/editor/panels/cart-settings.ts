import { html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { DEFAULT_SETTINGS } from '#core/wire/configurator/default-settings.js';
import { MAX_SKU_SEPARATOR_LENGTH } from '#core/wire/configurator/parse-settings.js';
import { parseScene, resolveOptions } from '#core/wire/configurator/index.js';
import { PanelElement } from './panel-element.js';
import { SETTINGS } from './scene-lists.js';

const CART = [...SETTINGS, 'cart'];
const D = DEFAULT_SETTINGS.cart;
/** The limits of docs/scene-format.md, `projectSettings.cart`. */
const MAX_LABEL = 200;
const MAX_SKU_BASE = 64;
const MAX_ACTION = 2048;

/** `cart.action`: an https: address, or a path on the merchant page's own site (not `//host`, which leaves it). */
function cartActionProblem(text: string): string | null {
  if (text.length > MAX_ACTION) return `The cart address has at most ${MAX_ACTION} characters.`;
  if (text.startsWith('/')) {
    return /^\/[/\\]/.test(text) ? 'A path starts with a single "/" (as in /cart/add).' : null;
  }
  try {
    if (new URL(text).protocol === 'https:') return null;
  } catch {
    // Not an address at all: the message below says what is.
  }
  return 'The cart address is an https:// address or a path on your page\'s site starting with "/".';
}

/**
 * The Look panel's cart settings (docs/scene-format.md, `projectSettings.cart`): the add-to-cart button, its label,
 * the SKU's parts, the quantity stepper and where the element posts the signed line.
 */
@customElement('editor-cart-settings')
export class CartSettings extends PanelElement {
  /** The SKU the default configuration would get: the base, then each active block's selected choice's SKU. */
  private exampleSku(): string | null {
    const { scene } = parseScene(this.data);
    const resolved = resolveOptions(scene, {});
    const parts = scene.optionBlocks.flatMap((block) => {
      const choice = block.choices.find((candidate) => candidate.id === resolved.options[block.id]);
      return resolved.blocks[block.id]?.active && choice?.sku ? [choice.sku] : [];
    });
    const { skuBase, skuSeparator } = scene.settings.cart;
    const all = skuBase ? [skuBase, ...parts] : parts;
    return all.length > 0 ? all.join(skuSeparator) : null;
  }

  override render() {
    const sku = this.exampleSku();
    return html`<section class="card" aria-label="Add to cart">
      <h3>Add to cart</h3>
      <p class="help">
        Shoppers put the configured product in your shop's cart at a price the server signs. The button shows only when
        the server has a cart signing key.
      </p>
      <div class="grid">
        <div>
          ${this.checkField({
            label: 'Show “Add to cart”',
            path: [...CART, 'enabled'],
            fallback: D.enabled,
            edit: 'Change add to cart',
          })}
          ${this.checkField({
            label: 'Quantity stepper (1 to 99)',
            path: [...CART, 'quantity'],
            fallback: D.quantity,
            edit: 'Change quantity stepper',
          })}
        </div>
        ${this.textField({
          label: 'Button label',
          path: [...CART, 'label'],
          edit: 'Set cart button label',
          maxLength: MAX_LABEL,
          placeholder: D.label,
          help: `At most ${MAX_LABEL} characters; empty: “${D.label}”.`,
        })}
        ${this.textField({
          label: 'SKU base',
          path: [...CART, 'skuBase'],
          edit: 'Set SKU base',
          maxLength: MAX_SKU_BASE,
          placeholder: 'none',
          help: `1 to ${MAX_SKU_BASE} characters; each selected choice's SKU (set in Options) follows it.`,
        })}
        ${this.textField({
          label: 'SKU separator',
          path: [...CART, 'skuSeparator'],
          edit: 'Set SKU separator',
          maxLength: MAX_SKU_SEPARATOR_LENGTH,
          placeholder: D.skuSeparator,
          help: `1 to ${MAX_SKU_SEPARATOR_LENGTH} characters between the SKU's parts; empty: “${D.skuSeparator}”.`,
        })}
        ${this.textField({
          label: 'Cart address (action)',
          path: [...CART, 'action'],
          edit: 'Set cart address',
          wide: true,
          placeholder: 'https://shop.example/cart/add or /cart/add',
          check: cartActionProblem,
          help:
            'Where the element posts the signed line as a form: an https:// address, or a path on your page’s site. ' +
            'Empty: your page handles the config-share-add-to-cart event.',
        })}
        <p class="wide sku-example" aria-live="polite">
          ${sku ? html`SKU of the default configuration: <code>${sku}</code>` : 'No SKU: set a base or choice SKUs.'}
        </p>
      </div>
      ${this.warningList(CART, true)}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-cart-settings': CartSettings;
  }
}
