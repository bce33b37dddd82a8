import { assert, cleanUp, equal, part, recordEvents, requestsOf, until, untilState, mountShare } from './helpers.js';
import { sendKeys } from '@web/test-runner-commands';
import type { ConfigShareElement } from '../../element/config-share.js';

afterEach(cleanUp);

function fill(element: ConfigShareElement, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values))
    part<HTMLInputElement>(element, `[part="form"] [name="${name}"]`)!.value = value;
}

const submits = async (element: ConfigShareElement) =>
  (await requestsOf(element)).filter((request) => request.action === '/submit');

describe('<config-share> form and submit', () => {
  it('renders the fields with labels and names, and the option blocks', async () => {
    const element = mountShare('plain');
    await untilState(element, 'ready');
    await until(() => part(element, '[part="options"]'), 'the options panel (a lazy chunk)');
    for (const [name, label] of [
      ['name', 'Name'],
      ['email', 'E-mail'],
      ['quantity', 'Quantity'],
      ['finish', 'Finish'],
      ['terms', 'I accept the terms'],
    ]) {
      const control = part(element, `[part="form"] [name="${name}"]`)!;
      assert(control, `field ${name}`);
      assert(part(element, `label[for="${control.id}"]`)?.textContent?.startsWith(label), `label of ${name}`);
    }
    equal(
      [...element.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name="option:seat"]')].map((radio) => [
        radio.value,
        radio.checked,
      ]),
      [
        ['oak', true],
        ['walnut', false],
      ],
      'option choices',
    );
    assert(part(element, '[part="form"] [part="submit-button"]'), 'the submit button');
  });

  it('checks required fields in place before sending, and moves focus to the first', async () => {
    const errors = recordEvents('config-share-error');
    const element = mountShare('plain');
    await untilState(element, 'ready');
    fill(element, { email: 'ada@example.com' });
    part<HTMLButtonElement>(element, '[part="submit-button"]')!.click();
    const name = part<HTMLInputElement>(element, '[name="name"]')!;
    await until(() => name.getAttribute('aria-invalid') === 'true', 'the name field marked invalid');
    const message = part(element, `#${name.getAttribute('aria-describedby')}`)!;
    equal(message.textContent, 'Please fill in Name.', 'the message under the field');
    await until(() => element.shadowRoot!.activeElement === name, 'focus on the field');
    equal(part(element, '[name="email"]')!.getAttribute('aria-invalid'), 'false', 'the e-mail is fine');
    equal(await submits(element), [], 'nothing sent');
    equal(
      errors.seen.map((event) => event.detail.type),
      ['invalid'],
      'error event',
    );
    errors.stop();
  });

  it('checks each field by its type before sending: messages beside fields, values kept, nothing posted', async () => {
    const errors = recordEvents('config-share-error');
    const element = mountShare('plain');
    await untilState(element, 'ready');
    fill(element, { name: 'Ada', email: 'not-an-email', quantity: '11' });
    part<HTMLSelectElement>(element, '[name="finish"]')!.value = 'Gloss';
    part<HTMLInputElement>(element, '[name="terms"]')!.checked = true;
    part<HTMLButtonElement>(element, '[part="submit-button"]')!.click();
    const email = part<HTMLInputElement>(element, '[name="email"]')!;
    const quantity = part<HTMLInputElement>(element, '[name="quantity"]')!;
    await until(() => email.getAttribute('aria-invalid') === 'true', 'the e-mail marked invalid');
    equal(
      part(element, `#${email.getAttribute('aria-describedby')}`)!.textContent,
      'Enter an e-mail address like name@example.com.',
      'the e-mail message beside the field',
    );
    equal(quantity.getAttribute('aria-invalid'), 'true', 'the quantity marked invalid');
    equal(
      part(element, `#${quantity.getAttribute('aria-describedby')}`)!.textContent,
      'Must be at most 10.',
      'the quantity message beside the field',
    );
    equal(part(element, '[name="name"]')!.getAttribute('aria-invalid'), 'false', 'the name is fine');
    await until(() => element.shadowRoot!.activeElement === email, 'focus on the first bad field');
    equal(
      ['name', 'email', 'quantity', 'finish'].map((name) => part<HTMLInputElement>(element, `[name="${name}"]`)!.value),
      ['Ada', 'not-an-email', '11', 'Gloss'],
      'everything typed is kept',
    );
    assert(part<HTMLInputElement>(element, '[name="terms"]')!.checked, 'the checkbox stays ticked');
    equal(await submits(element), [], 'nothing posted');
    equal(
      errors.seen.map((event) => event.detail.type),
      ['invalid'],
      'error event',
    );
    errors.stop();

    fill(element, { email: 'ada@example.com', quantity: '3' });
    const requestId = await element.submit();
    assert(requestId, 'sent once the fields are fixed');
    equal(email.getAttribute('aria-invalid'), 'false', 'the e-mail message cleared');
    equal((await submits(element))[0].body.formData, {
      name: 'Ada',
      email: 'ada@example.com',
      quantity: 3,
      finish: 'Gloss',
      terms: true,
    });
  });

  it('says "Enter a number" for text a number field cannot read, and keeps it', async () => {
    const element = mountShare('plain');
    await untilState(element, 'ready');
    fill(element, { name: 'Ada', email: 'ada@example.com' });
    const quantity = part<HTMLInputElement>(element, '[name="quantity"]')!;
    quantity.focus();
    await sendKeys({ type: '1e' });
    assert(quantity.validity.badInput, 'the browser cannot read the number');
    equal(await element.submit(), null, 'not sent');
    equal(quantity.getAttribute('aria-invalid'), 'true', 'the quantity marked invalid');
    equal(part(element, `#${quantity.getAttribute('aria-describedby')}`)!.textContent, 'Enter a number.', 'message');
    assert(quantity.validity.badInput, 'what was typed stays');
    equal(await submits(element), [], 'nothing posted');
  });

  it('a double click sends one request (Idempotency-Key); success shows the id and fires the event', async () => {
    const events = recordEvents('config-share-submit');
    const element = mountShare('plain');
    await untilState(element, 'ready');
    fill(element, { name: 'Ada', email: 'ada@example.com', quantity: '2' });
    await until(() => part(element, 'input[name="option:seat"]'), 'the options');
    part<HTMLInputElement>(element, 'input[name="option:seat"][value="walnut"]')!.click();
    const button = part<HTMLButtonElement>(element, '[part="submit-button"]')!;
    button.click();
    button.click();
    await until(() => button.disabled, 'the button disabled while sending');
    await until(() => events.seen.length > 0, 'the submit event', 30_000);
    const requestId = events.seen[0].detail.requestId;
    assert(events.seen[0].bubbles && events.seen[0].composed, 'bubbles and composed');
    const sent = await submits(element);
    equal(sent.length, 1, 'one request');
    assert(/^[0-9a-f]{32}$/.test(sent[0].idempotencyKey!), `an Idempotency-Key: ${sent[0].idempotencyKey}`);
    const { formData, selectedOptions, configurationSummary, screenshots, price } = sent[0].body;
    equal(formData, { name: 'Ada', email: 'ada@example.com', quantity: 2, terms: false }, 'formData');
    equal(selectedOptions, { seat: 'walnut' }, 'selectedOptions');
    // A choice with a price makes a priced project (no currency: plain numbers).
    equal(configurationSummary, 'Seat: Walnut\nTotal: 40.00', 'summary with the total');
    equal(price, { total: 4000, currency: null }, 'the price shown');
    assert(screenshots.length === 1 && screenshots[0].startsWith('data:image/png;base64,'), 'one PNG screenshot');
    await until(() => part(element, '.submit-status')?.textContent?.includes(requestId), 'the request id shown');
    equal(part(element, '.submit-status')!.getAttribute('role'), 'status', 'announced');
    assert(!button.disabled, 'the button is enabled again');
    equal(events.seen.length, 1, 'one submit event');
    events.stop();
  });

  it('submit(extra) returns the requestId; each attempt has its own key', async () => {
    const element = mountShare('plain');
    await untilState(element, 'ready');
    const first = await element.submit({ formData: { name: 'Ada', email: 'ada@example.com' }, screenshots: [] });
    const second = await element.submit({
      formData: { name: 'Ada', email: 'ada@example.com' },
      configurationSummary: 'custom',
      screenshots: [],
    });
    assert(first && second && first !== second, `two requests: ${first}, ${second}`);
    const sent = await submits(element);
    assert(sent[0].idempotencyKey !== sent[1].idempotencyKey, 'new key per attempt');
    equal(sent[1].body.configurationSummary, 'custom', 'extra summary');
    equal(sent[1].body.screenshots, [], 'extra screenshots');
  });

  it("shows the server's 400 details next to the field", async () => {
    const element = mountShare('strict');
    await untilState(element, 'ready');
    // A well-shaped address the server still refuses: the element's own check lets it through.
    const requestId = await element.submit({
      formData: { name: 'Ada', email: 'ada@example.invalid' },
      screenshots: [],
    });
    equal(requestId, null, 'no request id');
    const email = part<HTMLInputElement>(element, '[name="email"]')!;
    await until(() => email.getAttribute('aria-invalid') === 'true', 'the e-mail marked invalid');
    equal(
      part(element, `#${email.getAttribute('aria-describedby')}`)!.textContent,
      'must be an e-mail address',
      'server message',
    );
  });
});
