import { decodeConfiguration, encodeConfiguration } from '#core/wire/configurator/index.js';
import type { ConfigShareElement } from '../../element/config-share.js';
import {
  assert,
  cleanUp,
  equal,
  eventsOf,
  mount,
  part,
  projectOf,
  recordEvents,
  until,
  untilState,
} from './helpers.js';

/** The clipboard as the element sees it: what was written, and whether writing works. */
const clipboard = { written: [] as string[], works: true };

before(() => {
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: (text: string) => {
        if (!clipboard.works) return Promise.reject(new DOMException('denied', 'NotAllowedError'));
        clipboard.written.push(text);
        return Promise.resolve();
      },
    },
  });
});
// The stub is an own property of `navigator`: deleting it uncovers the real one again.
after(() => {
  delete (navigator as { clipboard?: unknown }).clipboard;
});
afterEach(() => {
  cleanUp();
  clipboard.written = [];
  clipboard.works = true;
  history.replaceState(null, '', location.pathname + location.search);
});

const mountStool = (attributes: Record<string, string> = {}, id = projectOf('stool')) =>
  mount({ 'project-id': id, token: 'tok', locale: 'en-US', ...attributes });

async function ready(element: ConfigShareElement) {
  await untilState(element, 'ready');
  await until(() => part(element, '[part="options"]'), 'the options panel');
}

const checked = (element: ConfigShareElement, block: string) =>
  part<HTMLInputElement>(element, `input[name="option:${block}"]:checked`)?.value;

describe('<config-share> save', () => {
  it('builds the link, copies it, shows it read-only, says so, and sends configuration.saved', async () => {
    const saves = recordEvents('config-share-save');
    const element = mountStool();
    await ready(element);
    await element.setOption('seat', 'walnut');
    const before = location.href;
    part<HTMLButtonElement>(element, '[part="save-button"]')!.click();
    await until(() => saves.seen.length === 1, 'the save event');
    const { configuration, url } = saves.seen[0].detail;
    assert(saves.seen[0].cancelable, 'cancelable');
    equal(url, `${location.href.split('#')[0]}#cs=${configuration}`, 'the page URL with the configuration');
    equal(decodeConfiguration(configuration)?.options, element.getConfiguration()!.options, 'what is selected');
    await until(() => clipboard.written.length === 1, 'copied');
    equal(clipboard.written[0], url, 'the link copied');
    const link = part<HTMLInputElement>(element, '[part="save-link"]')!;
    equal([link.value, link.readOnly], [url, true], 'shown read-only');
    await until(() => part(element, '.save-status')?.textContent?.trim() === 'Link copied', 'announced');
    equal(location.href, before, 'the page URL is left alone');
    await until(async () => (await eventsOf(element)).some((event) => event.type === 'configuration.saved'), 'event');
    saves.stop();
  });

  it('a cancelled save copies nothing and shows no link; a refused copy selects the link', async () => {
    const element = mountStool();
    await ready(element);
    const cancel = (event: Event) => event.preventDefault();
    document.addEventListener('config-share-save', cancel);
    part<HTMLButtonElement>(element, '[part="save-button"]')!.click();
    await element.updateComplete;
    document.removeEventListener('config-share-save', cancel);
    assert(!part(element, '[part="save-link"]'), 'no link');
    equal(clipboard.written, [], 'nothing copied');

    clipboard.works = false;
    part<HTMLButtonElement>(element, '[part="save-button"]')!.click();
    await until(() => part(element, '.save-status')?.textContent?.trim().startsWith('Copy the selected link'), 'told');
    const link = part<HTMLInputElement>(element, '[part="save-link"]')!;
    await until(() => link.selectionStart === 0 && link.selectionEnd === link.value.length, 'the link selected');
  });
});

describe('<config-share> restore', () => {
  it('restores from the fragment of this project, ahead of the attribute', async () => {
    const id = projectOf('stool');
    const saved = encodeConfiguration({
      projectId: id,
      options: { seat: 'walnut', backrest: 'on' },
      fields: { quantity: 3 },
    });
    history.replaceState(null, '', `#cs=${saved}`);
    const errors = recordEvents('config-share-error');
    const changes = recordEvents('config-share-option-change');
    const element = mountStool({ configuration: '{"options":{"seat":"plain"}}' }, id);
    await ready(element);
    equal([checked(element, 'seat'), checked(element, 'legs')], ['walnut', 'brass'], 'restored, rules applied');
    assert(part<HTMLInputElement>(element, 'input[name="option:backrest"]')!.checked, 'the switch on');
    await until(() => part<HTMLInputElement>(element, '[part="form"] [name="quantity"]')?.value === '3', 'quantity 3');
    equal(element.getConfiguration()?.price?.total, 73200, '(149 + 40 + 25 + 30) × 3');
    equal(errors.seen, [], 'no error');
    equal(changes.seen, [], 'a restore is not a change');
    errors.stop();
    changes.stop();
  });

  it("another project's fragment is left alone; the attribute's JSON applies, stale entries one by one", async () => {
    history.replaceState(null, '', `#cs=${encodeConfiguration({ projectId: 'other', options: { seat: 'walnut' } })}`);
    const errors = recordEvents('config-share-error');
    const element = mountStool({ configuration: '{"options":{"seat":"plain","backrest":"maybe","nope":"x"}}' });
    await ready(element);
    equal(checked(element, 'seat'), 'plain', 'the valid entry applies');
    assert(!part<HTMLInputElement>(element, 'input[name="option:backrest"]')!.checked, 'the stale one: default');
    equal(element.getAttribute('state'), 'ready', 'still ready');
    const [error] = errors.seen.map((event) => event.detail);
    equal(error.type, 'configuration', 'a configuration error');
    assert(error.message.includes('backrest') && error.message.includes('nope'), `names them: ${error.message}`);
    errors.stop();
  });

  it('an unreadable attribute is ignored whole; set again later it applies as api changes', async () => {
    const errors = recordEvents('config-share-error');
    const changes = recordEvents('config-share-option-change');
    const element = mountStool({ configuration: 'not a configuration!' });
    await ready(element);
    equal(checked(element, 'seat'), 'oak', 'defaults');
    equal(
      errors.seen.map((event) => event.detail.type),
      ['configuration'],
      'said once',
    );
    element.setAttribute(
      'configuration',
      encodeConfiguration({ projectId: element.projectId, options: { seat: 'walnut' } }),
    );
    await until(() => checked(element, 'seat') === 'walnut', 'applied');
    equal(changes.seen[0].detail.source, 'api', 'as an api change');
    errors.stop();
    changes.stop();
  });
});
