import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import type { PublicProject } from '#core/wire/public-project.js';
import type { ConfigShareElement } from '../../element/config-share.js';
import {
  assert,
  cleanUp,
  equal,
  mount,
  part,
  projectOf,
  recordEvents,
  requestsOf,
  until,
  untilState,
  type LoggedRequest,
} from './helpers.js';

/** The fake BFF's cart scenarios (fake-bff.mjs, `cartSettings` and `configurationAnswer`). */
const mountCart = (scenario = 'stoolcart', width = 320) => {
  const element = mount({ 'project-id': projectOf(scenario), token: 'tok', locale: 'en-US' });
  element.style.width = `${width}px`;
  return element;
};

async function ready(element: ConfigShareElement) {
  await untilState(element, 'ready');
  await until(() => part(element, '[part="options"]'), 'the options panel');
}

const cartButton = (element: ConfigShareElement) => part<HTMLButtonElement>(element, '[part="cart-button"]');
const quantityInput = (element: ConfigShareElement) => part<HTMLInputElement>(element, '[part="quantity"] input');
const statusText = (element: ConfigShareElement) => part(element, '.cart-status')?.textContent?.trim() ?? '';

const configurationPosts = async (element: ConfigShareElement): Promise<LoggedRequest[]> =>
  (await requestsOf(element)).filter((request) => request.action === '/configurations');

/** The width and height of an image data URL. */
async function imageSize(url: string): Promise<[number, number]> {
  const bitmap = await createImageBitmap(await (await fetch(url)).blob());
  return [bitmap.width, bitmap.height];
}

/** Every form submitted on the page while `run` goes on, held back (the page never navigates in a test). */
async function formsSubmittedDuring(run: () => Promise<unknown>) {
  const forms: { action: string; method: string; target: string; fields: Record<string, string> }[] = [];
  const hold = (event: Event) => {
    const form = event.target as HTMLFormElement;
    event.preventDefault();
    const fields = Object.fromEntries([...new FormData(form)].map(([name, value]) => [name, String(value)]));
    forms.push({ action: form.action, method: form.method, target: form.target, fields });
  };
  document.addEventListener('submit', hold);
  try {
    await run();
  } finally {
    document.removeEventListener('submit', hold);
  }
  return forms;
}

afterEach(() => cleanUp());

describe('<config-share> cart: the controls', () => {
  it('shows the button with the settings label and a 1 to 99 stepper only when the cart is enabled', async () => {
    const element = mountCart();
    await ready(element);
    await until(() => cartButton(element), 'the cart button');
    equal(cartButton(element)!.textContent!.trim(), 'Add to basket', 'the label from projectSettings.cart');
    const input = quantityInput(element)!;
    equal([input.value, input.min, input.max], ['1', '1', '99'], 'the stepper');
    const [fewer, more] = part(element, '[part="quantity"]')!.querySelectorAll('button');
    assert(fewer.disabled, 'no fewer than one');
    more.click();
    await until(() => quantityInput(element)!.value === '2', 'one more');
    input.value = '250';
    input.dispatchEvent(new Event('change'));
    await until(() => quantityInput(element)!.value === '99', 'a typed quantity held within 99');

    for (const scenario of ['stoolcartoff', 'stool']) {
      const other = mountCart(scenario);
      await ready(other);
      assert(!cartButton(other), `no cart button (${scenario})`);
      assert(!part(other, '[part="quantity"]'), `no stepper (${scenario})`);
    }
    const single = mountCart('stoolcartone');
    await ready(single);
    await until(() => cartButton(single), 'the cart button without a stepper');
    assert(!part(single, '[part="quantity"]'), 'quantity: false shows no stepper');
  });
});

describe('<config-share> cart: adding', () => {
  it('POSTs the selections as the saved configuration has them, the quantity, a picture ≤ 1024 px wide', async () => {
    // Wide enough that the canvas is wider than 1024 px: the picture is scaled down.
    const element = mountCart('stoolcart', 1700);
    await ready(element);
    await element.setOption('seat', 'walnut');
    const formQuantity = part<HTMLInputElement>(element, '[part="form"] [name="quantity"]')!;
    formQuantity.value = '3';
    formQuantity.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await until(() => cartButton(element), 'the cart button');
    part(element, '[part="quantity"]')!.querySelectorAll('button')[1].click();
    await until(() => quantityInput(element)!.value === '2', 'quantity 2');
    assert((element.shadowRoot!.querySelector('canvas')?.width ?? 0) > 1024, 'a canvas wider than the picture');

    cartButton(element)!.click();
    await until(async () => (await configurationPosts(element)).length === 1, 'the configurations POST');
    const [post] = await configurationPosts(element);
    const { options, fields } = element.getConfiguration()!;
    equal(post.body.options, options, 'every active block, as the saved configuration has them');
    equal(post.body.fields, { quantity: 3 }, 'the number fields the formula reads');
    equal(fields, { quantity: 3 }, 'as getConfiguration() says');
    equal(post.body.quantity, 2, 'the quantity');
    equal(post.contentType, 'application/json', 'JSON');
    assert(String(post.body.screenshot).startsWith('data:image/png;base64,'), 'a PNG data URL');
    const [width] = await imageSize(post.body.screenshot);
    equal(width, 1024, 'scaled to 1024 px wide');
  });

  it('sends config-share-add-to-cart { configuration, token, quantity, editUrl }, then reads "Added"', async () => {
    const added = recordEvents('config-share-add-to-cart');
    const element = mountCart();
    await ready(element);
    await element.setOption('legs', 'brass');
    await until(() => cartButton(element), 'the cart button');
    const forms = await formsSubmittedDuring(async () => {
      cartButton(element)!.click();
      await until(() => added.seen.length === 1, 'the add-to-cart event');
    });
    const event = added.seen[0];
    assert(event.bubbles && event.composed && event.cancelable, 'bubbling, composed, cancelable');
    const { configuration, token, quantity, editUrl } = event.detail;
    const saved = element.getConfiguration()!.configuration;
    equal(editUrl, `${location.href.split('#')[0]}#cs=${saved}`, 'the page URL with the saved configuration');
    equal(quantity, 1, 'the quantity');
    equal(configuration.options.legs, 'brass', 'the server configuration');
    equal(token, `token-for-${configuration.id}`, 'the token the server answered');
    equal(forms, [], 'no action: no form is posted');
    await until(() => cartButton(element)!.textContent!.trim() === 'Added', '"Added"');
    equal(statusText(element), 'Added to your cart.', 'said in the status line');
    await until(() => cartButton(element)!.textContent!.trim() === 'Add to basket', 'the label again after 2 s');
    added.stop();
  });

  it('is disabled and aria-busy while it works', async () => {
    const element = mountCart();
    await ready(element);
    await until(() => cartButton(element), 'the cart button');
    const button = cartButton(element)!;
    equal(button.getAttribute('aria-busy'), 'false', 'not busy at first');
    button.click();
    await until(() => cartButton(element)!.getAttribute('aria-busy') === 'true', 'busy');
    assert(cartButton(element)!.disabled, 'disabled while busy');
    equal(cartButton(element)!.textContent!.trim(), 'Adding…', 'says so');
    button.click();
    await until(() => cartButton(element)!.getAttribute('aria-busy') === 'false', 'done');
    equal((await configurationPosts(element)).length, 1, 'a second click while busy sends nothing');
  });
});

describe('<config-share> cart: the merchant page', () => {
  it('with an action: a top-level form POST of the four fields to the cart on another origin', async () => {
    const element = mountCart('stoolcartpost');
    await ready(element);
    await until(() => cartButton(element), 'the cart button');
    const added = recordEvents('config-share-add-to-cart');
    const forms = await formsSubmittedDuring(async () => {
      cartButton(element)!.click();
      await until(() => added.seen.length === 1, 'the add-to-cart event');
    });
    const { configuration, token, editUrl } = added.seen[0].detail;
    equal(forms.length, 1, 'one form posted');
    const [form] = forms;
    equal([form.action, form.method, form.target], ['https://shop.example/cart/add', 'post', '_top'], 'where');
    equal(
      form.fields,
      { config_share_token: token, config_share_id: configuration.id, quantity: '1', edit_url: editUrl },
      'the four fields',
    );
    assert(!document.querySelector('form'), 'the form does not stay in the page');
    added.stop();
  });

  it('cancelled: no form POST and no "Added"', async () => {
    const element = mountCart('stoolcartpost');
    await ready(element);
    await until(() => cartButton(element), 'the cart button');
    const cancel = (event: Event) => event.preventDefault();
    document.addEventListener('config-share-add-to-cart', cancel);
    const added = recordEvents('config-share-add-to-cart');
    const forms = await formsSubmittedDuring(async () => {
      cartButton(element)!.click();
      await until(() => added.seen.length === 1, 'the add-to-cart event');
      await until(() => cartButton(element)!.getAttribute('aria-busy') === 'false', 'done');
    });
    document.removeEventListener('config-share-add-to-cart', cancel);
    equal(forms, [], 'no form posted');
    equal(cartButton(element)!.textContent!.trim(), 'Add to basket', 'the label, not "Added"');
    added.stop();
  });
});

describe('<config-share> cart: failures', () => {
  const cases = [
    ['stoolcartdisabled', 'This product cannot be added to a cart at the moment.'],
    ['stoolcartnokey', 'The cart of this shop is not set up yet, so this product cannot be added.'],
    ['stoolcartbad', 'This configuration could not be added (quantity: must be a whole number from 1 to 10000).'],
  ] as const;
  for (const [scenario, message] of cases) {
    it(`${scenario}: says why beside the button and in config-share-error`, async () => {
      const errors = recordEvents('config-share-error');
      const element = mountCart(scenario);
      await ready(element);
      await until(() => cartButton(element), 'the cart button');
      cartButton(element)!.click();
      await until(() => errors.seen.some((event) => event.detail.type === 'cart'), 'a cart error');
      equal(errors.seen.find((event) => event.detail.type === 'cart')!.detail.message, message, 'the message');
      await until(() => statusText(element) === message, `the message beside the button (${statusText(element)})`);
      assert(part(element, '.cart-status.error'), 'shown as an error');
      assert(!cartButton(element)!.disabled, 'the button can be clicked again');
      errors.stop();
    });
  }

  it('429: waits for Retry-After, showing it, then adds', async () => {
    const added = recordEvents('config-share-add-to-cart');
    const element = mountCart('stoolcartbusy');
    await ready(element);
    await until(() => cartButton(element), 'the cart button');
    cartButton(element)!.click();
    await until(() => statusText(element).startsWith('The shop is busy. Trying again in'), 'the wait shown');
    assert(cartButton(element)!.disabled, 'no click meanwhile');
    await until(() => added.seen.length === 1, 'added after the wait');
    const [first, second] = await configurationPosts(element);
    equal([first.status, second.status], [429, 201], 'refused, then created');
    assert(second.receivedAt - first.receivedAt >= 2000 - 50, 'the second try waited the 2 s of Retry-After');
    added.stop();
  });
});

describe('<config-share> cart: preview', () => {
  it('a previewing element shows the button disabled with a note and creates nothing', async () => {
    const fetched: string[] = [];
    const realFetch = window.fetch;
    const { project } = (await (await realFetch(`/share/${projectOf('stoolcart')}/tok`)).json()) as {
      project: PublicProject;
    };
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      fetched.push(new URL(input instanceof Request ? input.url : String(input), location.href).pathname);
      return realFetch(input, init);
    };
    try {
      const element = mount({ locale: 'en-US' });
      element.preview = project;
      await ready(element);
      await until(() => cartButton(element), 'the cart button');
      assert(cartButton(element)!.disabled, 'disabled');
      equal(statusText(element), 'Preview: nothing is added to a cart', 'the note');
      cartButton(element)!.dispatchEvent(new MouseEvent('click'));
      equal(
        fetched.filter((path) => path.startsWith('/share/')),
        [],
        'no request to the share routes',
      );
    } finally {
      window.fetch = realFetch;
    }
  });
});

describe('<config-share> cart: the look', () => {
  after(() => setViewport({ width: 800, height: 600 }));

  // Screenshots to look at ($ELEMENT_SCREENSHOTS): the stepper and button beside each other, and a refusal's message.
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ]) {
    it(`fits a ${width} px page: stepper and button on one row, the message below`, async () => {
      await setViewport({ width, height });
      const element = mountCart('stoolcartnokey', width);
      element.style.width = '100%';
      await ready(element);
      await until(() => cartButton(element), 'the cart button');
      cartButton(element)!.click();
      await until(() => part(element, '.cart-status.error'), 'the message');
      const [stepper, button] = [part(element, '[part="quantity"]')!, cartButton(element)!];
      button.scrollIntoView({ block: 'center' });
      const [a, b] = [stepper.getBoundingClientRect(), button.getBoundingClientRect()];
      equal(Math.round(a.top), Math.round(b.top), 'one row');
      assert(b.left >= a.right, 'the button after the stepper');
      assert(b.height >= 44 && a.height >= 44, 'touch-sized');
      assert(element.scrollWidth <= element.clientWidth, 'no horizontal overflow');
      await executeServerCommand('screenshot', { name: `cart-${width}` });
    });
  }
});
