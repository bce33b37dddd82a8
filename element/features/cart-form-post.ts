/** The fields a cart's `action` receives (docs/cart.md). */
export interface CartFormFields {
  config_share_token: string;
  config_share_id: string;
  quantity: string;
  edit_url: string;
}

/**
 * A top-level form POST of the cart line to the merchant's `action` (an https: URL or a path on the page's origin):
 * the browser navigates there as with any form, so the shop's server receives the token without script of its own.
 * `requestSubmit` fires the form's `submit` event, so the page's own listeners see it like any other form.
 */
export function postToCart(action: string, fields: CartFormFields): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = new URL(action, location.href).href;
  // Inside a frame (the share page's embed), the cart opens in place of the whole page.
  form.target = '_top';
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.requestSubmit();
  form.remove();
}
