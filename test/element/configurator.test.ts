import { executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
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
} from './helpers.js';
import { MODEL_FILES, type ModelFile } from './model-files.js';

afterEach(cleanUp);

/**
 * The demo stool of the fake BFF (docs/scene-format.md, The demo stool), prices formatted for en-US unless `locale`
 * says otherwise, its model signed as `file`.
 */
const mountStool = (scenario = 'stool', attributes: Record<string, string> = {}, file: ModelFile = 'original') =>
  mount({ 'project-id': projectOf(scenario, file), token: 'tok', locale: 'en-US', ...attributes });

async function ready(element: ConfigShareElement) {
  await untilState(element, 'ready');
  await until(() => part(element, '[part="options"]'), 'the options panel');
}

const radio = (element: ConfigShareElement, block: string, choice: string) =>
  part<HTMLInputElement>(element, `input[name="option:${block}"][value="${choice}"]`);
const focused = (element: ConfigShareElement) => element.shadowRoot!.activeElement as HTMLInputElement | null;
/** The text as shown, runs of spaces and line breaks made one space (a no-break space stays). */
const text = (node: Element | null) => (node?.textContent ?? '').replace(/[ \n\t]+/g, ' ').trim();

describe('<config-share> options panel', () => {
  it('shows each block between the viewer and the form: radio groups, swatches and a switch, with deltas', async () => {
    const element = mountStool();
    await ready(element);
    const root = element.shadowRoot!;
    const [viewer, options, form] = ['[part="viewer"]', '[part="options"]', '[part="form"]'].map((selector) =>
      root.querySelector(selector)!,
    );
    assert(viewer.compareDocumentPosition(options) & Node.DOCUMENT_POSITION_FOLLOWING, 'options after the viewer');
    assert(options.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING, 'the form after the options');
    equal(form.querySelectorAll('input[name^="option:"]').length, 0, 'no option inside the form');

    const groups = [...options.querySelectorAll('fieldset[part="option-block"]')];
    equal(
      groups.map((group) => [group.getAttribute('role'), text(group.querySelector('legend'))]),
      [
        ['radiogroup', 'Seat'],
        ['radiogroup', 'Legs'],
        [null, ''],
        ['radiogroup', 'Cushion'],
      ],
      'one fieldset per block',
    );
    const swatch = radio(element, 'seat', 'walnut')!.closest('label')!;
    equal(swatch.getAttribute('part'), 'choice', 'each choice is a label part');
    assert(swatch.querySelector('.face'), 'a swatch shows its colour');
    equal(text(swatch.querySelector('.text')), 'Walnut', 'and its name, which names its radio');
    assert(swatch.querySelector('.check'), 'a check mark, not colour alone');
    equal(text(swatch.querySelector('.delta')), '+€40.00', 'the delta beside the choice');
    equal(text(radio(element, 'legs', 'brass')!.closest('label')!.querySelector('.delta')), '+€25.00', 'brass delta');
    const toggle = part<HTMLInputElement>(element, 'input[name="option:backrest"]')!;
    equal([toggle.type, toggle.getAttribute('role'), toggle.checked], ['checkbox', 'switch', false], 'a switch, off');
    equal(text(toggle.closest('label')!.querySelector('.text')), 'Backrest', 'labelled with the block name');
    equal(text(toggle.closest('label')!.querySelector('.delta')), '+€30.00', 'its delta');
    assert(radio(element, 'seat', 'oak')!.checked && radio(element, 'legs', 'steel')!.checked, 'defaults checked');
  });

  for (const size of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    it(`swatches show their names and prices in their tiles at ${size.width}x${size.height}`, async () => {
      await setViewport(size);
      const element = mountStool('stoolfinishes');
      element.style.width = '100%';
      await ready(element);
      const block = part(element, 'fieldset[data-block="seat"]')!;
      block.scrollIntoView();
      await executeServerCommand('screenshot', { name: `swatches-${size.width}x${size.height}` });

      const tiles = [...block.querySelectorAll<HTMLElement>('[part="choice"]')];
      equal(tiles.length, 6, 'a tile per choice');
      const within = (inner: DOMRect, outer: DOMRect) =>
        inner.width > 0 &&
        inner.height > 0 &&
        inner.left >= outer.left - 0.5 &&
        inner.right <= outer.right + 0.5 &&
        inner.top >= outer.top - 0.5 &&
        inner.bottom <= outer.bottom + 0.5;
      for (const tile of tiles) {
        const [name, face, delta] = ['.text', '.face', '.delta'].map((selector) => tile.querySelector(selector));
        const box = tile.getBoundingClientRect();
        const label = text(name);
        const shown = name!.getBoundingClientRect().width > 10 && getComputedStyle(name!).clipPath === 'none';
        assert(shown && within(name!.getBoundingClientRect(), box), `"${label}" shown in its tile`);
        if (face) assert(name!.getBoundingClientRect().top >= face.getBoundingClientRect().bottom, `${label} under`);
        if (delta) assert(within(delta.getBoundingClientRect(), box), `the price of ${label} in its tile`);
        equal(text(tile.querySelector('input')!.labels![0]).startsWith(label), true, `${label} names its radio`);
      }
      equal(
        tiles.map((tile) => text(tile.querySelector('.text'))),
        ['Oak', 'Walnut', 'Plain', 'Smoked oak, hand-oiled', 'Black-stained ash', 'Whitewashed Scandinavian pine'],
        'every name shown',
      );
      const boxes = tiles.map((tile) => tile.getBoundingClientRect());
      const overlap = (a: DOMRect, b: DOMRect) =>
        a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      assert(!boxes.some((a, i) => boxes.some((b, j) => i < j && overlap(a, b))), 'tiles never overlap');
      assert(block.scrollWidth <= block.clientWidth, `the block ${block.scrollWidth} px wide in ${block.clientWidth}`);
      equal(
        tiles.map((tile) => getComputedStyle(tile.querySelector('.check')!).display !== 'none'),
        [true, false, false, false, false, false],
        'the check mark on the selected tile only',
      );
      radio(element, 'seat', 'ash')!.click();
      await until(() => getComputedStyle(tiles[4].querySelector('.check')!).display !== 'none', 'ash selected');
      assert(getComputedStyle(tiles[0].querySelector('.check')!).display === 'none', 'oak no longer marked');
      assert(document.scrollingElement!.scrollWidth <= innerWidth, 'no horizontal scroll');
    });
  }

  it('keyboard: a Tab stop per block, arrows select and apply, disabled skipped, Space flips the switch', async () => {
    const changes = recordEvents('config-share-option-change');
    const element = mountStool();
    await ready(element);
    radio(element, 'seat', 'oak')!.focus();
    await sendKeys({ press: 'Tab' });
    equal(focused(element)?.value, 'steel', 'Tab goes to the next block, on its checked radio');
    await sendKeys({ press: 'ArrowRight' });
    equal(
      [focused(element)?.value, radio(element, 'legs', 'brass')!.checked],
      ['brass', true],
      'arrow moves and checks',
    );
    equal(element.getConfiguration()?.options.legs, 'brass', 'applied at once');
    const last = changes.seen.at(-1)!.detail;
    equal([last.blockId, last.choiceId, last.previousChoiceId, last.source], ['legs', 'brass', 'steel', 'visitor']);

    await sendKeys({ press: 'Tab' });
    equal(focused(element)?.name, 'option:backrest', 'Tab reaches the switch');
    await sendKeys({ press: 'Space' });
    assert(focused(element)!.checked, 'Space turns it on');
    equal(element.getConfiguration()?.options.backrest, 'on', 'backrest on');

    // Walnut disables steel: arrows on the legs skip it.
    radio(element, 'seat', 'walnut')!.click();
    await until(() => radio(element, 'legs', 'steel')?.disabled, 'steel disabled');
    const steel = radio(element, 'legs', 'steel')!.closest('label')!;
    equal(text(steel.querySelector('.text')), 'Steel (unavailable)', 'labelled unavailable');
    radio(element, 'legs', 'brass')!.focus();
    await sendKeys({ press: 'ArrowRight' });
    equal([focused(element)?.value, element.getConfiguration()?.options.legs], ['brass', 'brass'], 'steel skipped');
    changes.stop();
  });

  it('rules: requires disables and moves, hide drops to the default, hideBlock removes the block', async () => {
    const changes = recordEvents('config-share-option-change');
    const element = mountStool();
    await ready(element);
    radio(element, 'cushion', 'velvet')!.click();
    radio(element, 'cushion', 'velvet')!.focus();
    equal(element.getConfiguration()?.options.cushion, 'velvet', 'velvet chosen');

    // Brass legs hide velvet: the selection goes to the default, and focus to the block's checked radio.
    equal(await element.setOption('legs', 'brass'), true, 'brass');
    await until(() => !radio(element, 'cushion', 'velvet'), 'velvet hidden: not rendered');
    assert(radio(element, 'cushion', 'none')!.checked, 'the hidden choice went to the default');
    await until(() => focused(element) === radio(element, 'cushion', 'none'), 'focus on the checked radio');
    equal(
      changes.seen.slice(-2).map((event) => [event.detail.blockId, event.detail.choiceId, event.detail.source]),
      [
        ['legs', 'brass', 'api'],
        ['cushion', 'none', 'rule'],
      ],
      'the rule move follows the change',
    );

    // Walnut requires brass: steel is disabled, and a steel selection moves.
    await element.setOption('legs', 'steel');
    radio(element, 'seat', 'walnut')!.click();
    await until(() => radio(element, 'legs', 'brass')?.checked, 'legs moved to brass');
    assert(radio(element, 'legs', 'steel')!.disabled, 'steel disabled');
    equal(changes.seen.at(-1)!.detail.source, 'rule', 'a rule move');

    radio(element, 'seat', 'plain')!.click();
    await until(() => !part(element, 'input[name="option:cushion"]'), 'the cushion block hidden');
    equal('cushion' in element.getConfiguration()!.options, false, 'an inactive block has no selection');
    changes.stop();
  });

  it('setOption and getConfiguration: api changes, refusals for unknown, disabled and inactive', async () => {
    const changes = recordEvents('config-share-option-change');
    const element = mountStool();
    const early = element.setOption('seat', 'walnut');
    equal(await early, true, 'a call before load waits for the configurator');
    await ready(element);
    assert(radio(element, 'seat', 'walnut')!.checked, 'shown in the panel');
    equal(changes.seen[0].detail.source, 'api', 'source api');
    equal(await element.setOption('legs', 'steel'), false, 'disabled');
    equal(await element.setOption('seat', 'teak'), false, 'unknown choice');
    equal(await element.setOption('nope', 'oak'), false, 'unknown block');
    await element.setOption('seat', 'plain');
    equal(await element.setOption('cushion', 'linen'), false, 'inactive block');
    const snapshot = element.getConfiguration()!;
    equal(snapshot.options, { seat: 'plain', legs: 'brass', backrest: 'off' }, 'options');
    assert(/^[A-Za-z0-9_-]+$/.test(snapshot.configuration), `base64url: ${snapshot.configuration}`);
    equal(snapshot.price?.total, 18400, 'price with it');
    changes.stop();
  });
});

describe('<config-share> price', () => {
  it('shows the total and tax note, announces a change after it, and reprices when the quantity changes', async () => {
    const prices = recordEvents('config-share-price');
    const element = mountStool();
    await ready(element);
    const price = part(element, '[part="price"]')!;
    equal(
      [price.getAttribute('role'), price.getAttribute('aria-live'), price.getAttribute('aria-atomic')],
      ['status', 'polite', 'true'],
      'a polite atomic live region',
    );
    equal(text(price), 'Total €149.00 Includes VAT €23.79', 'total and tax note');
    equal(prices.seen.length, 1, 'one price event at load');
    const lines = part(element, 'details[part="price-lines"]')!;
    const breakdown = () => [...lines.querySelectorAll('dt')].map((dt) => [text(dt), text(dt.nextElementSibling)]);
    equal(breakdown(), [['Base price', '€149.00']], 'the breakdown');

    radio(element, 'seat', 'walnut')!.click();
    equal(element.getConfiguration()?.price?.total, 21400, 'repriced at once');
    await until(() => text(price).startsWith('Total €214.00'), 'the live region announces the new total');
    equal(
      breakdown(),
      [
        ['Base price', '€149.00'],
        ['Seat: Walnut', '€40.00'],
        ['Legs: Brass', '€25.00'],
      ],
      'the option lines',
    );

    const quantity = part<HTMLInputElement>(element, '[part="form"] [name="quantity"]')!;
    equal(quantity.value, '1', 'the field shows its default');
    quantity.value = '';
    quantity.focus();
    await sendKeys({ type: '2' });
    equal(element.getConfiguration()?.price?.total, 42800, 'quantity 2 doubles it at once');
    equal(element.getConfiguration()?.fields, { quantity: 2 }, 'the field is part of the configuration');
    await until(() => text(price).startsWith('Total €428.00'), 'announced');
    equal(prices.seen.at(-1)!.detail.price.total, 42800, 'price event');
    prices.stop();
  });

  it('formats by the locale attribute, and plain numbers without a currency', async () => {
    const german = mountStool('stool', { locale: 'de-DE' });
    await ready(german);
    equal(text(part(german, '[part="price"] .total')), '149,00\u00a0€', 'de-DE');
    equal(text(radio(german, 'seat', 'walnut')!.closest('label')!.querySelector('.delta')), '+40,00\u00a0€', 'delta');
    const plain = mountStool('stoolplain');
    await ready(plain);
    equal(text(part(plain, '[part="price"] .total')), '149.00', 'no currency: a number with 2 decimals');
    assert(!part(plain, '[part="save-button"]'), 'no save without saveConfigEnabled');
  });

  it('showPrices false: no price or deltas shown, still computed and sent', async () => {
    const element = mountStool('stoolhidden');
    await ready(element);
    assert(!part(element, '[part="price"]') && !part(element, '.delta'), 'nothing shown');
    equal(element.getConfiguration()?.price?.total, 14900, 'still computed');
    const id = await element.submit({ formData: { name: 'Ada', email: 'ada@example.com' }, screenshots: [] });
    assert(id, 'sent');
    const [sent] = (await requestsOf(element)).filter((request) => request.action === '/submit');
    equal(sent.body.price, { total: 14900, currency: 'EUR' }, 'the price goes with the request');
    assert(!sent.body.configurationSummary.includes('Total'), 'no total in the summary when prices are hidden');
  });

  it('a submit carries the active selections, the price and the summary total', async () => {
    const element = mountStool();
    await ready(element);
    radio(element, 'seat', 'walnut')!.click();
    const id = await element.submit({ formData: { name: 'Ada', email: 'ada@example.com' }, screenshots: [] });
    assert(id, 'sent');
    const [sent] = (await requestsOf(element)).filter((request) => request.action === '/submit');
    equal(sent.body.selectedOptions, { seat: 'walnut', legs: 'brass', backrest: 'off', cushion: 'none' });
    equal(sent.body.price, { total: 21400, currency: 'EUR' }, 'price');
    equal(
      sent.body.configurationSummary,
      'Seat: Walnut\nLegs: Brass\nBackrest: Without\nCushion: None\nTotal: €214.00',
      'summary with the total',
    );
  });
});

for (const file of MODEL_FILES)
  describe(`<config-share> animations, the model's ${file} file`, () => {
    it('buttons play the clip; repeat toggles aria-pressed; playAnimation works from script', async () => {
      const played = recordEvents('config-share-animation');
      const element = mountStool('stool', {}, file);
      await ready(element);
      const buttons = [...element.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="animation-button"]')];
      equal(
        buttons.map((button) => [text(button), button.getAttribute('aria-pressed')]),
        [
          ['Turn around', null],
          ['Keep turning', 'false'],
        ],
        'named buttons; the loop one is a toggle',
      );
      await until(() => part(element, 'canvas') && !part(element, 'progress'), 'the scene drawn');
      buttons[0].click();
      await until(() => played.seen.length > 0, 'the animation event');
      equal(played.seen[0].detail, { animationId: 'turn', trigger: 'button' }, 'a button trigger');
      buttons[1].click();
      await until(() => buttons[1].getAttribute('aria-pressed') === 'true', 'pressed');
      buttons[1].click();
      await until(() => buttons[1].getAttribute('aria-pressed') === 'false', 'released');
      equal(await element.playAnimation('turn'), true, 'from script');
      equal(await element.playAnimation('nope'), false, 'unknown: false, no rejection');
      played.stop();
    });
  });
