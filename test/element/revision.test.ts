import { assert, cleanUp, equal, mount, part, projectOf, requestsOf, until, untilState } from './helpers.js';

afterEach(cleanUp);

const radio = (element: HTMLElement, block: string, choice: string) =>
  element.shadowRoot!.querySelector<HTMLInputElement>(`input[name="option:${block}"][value="${choice}"]`);

describe('<config-share> a new revision of the payload', () => {
  it('keeps the selections still valid; one whose choice was withdrawn falls back to the default', async () => {
    // `stoolrevised`: the fake BFF answers revision 2, the walnut seat withdrawn, from the second read on.
    const element = mount({ 'project-id': projectOf('stoolrevised'), token: 'tok', locale: 'en-US' });
    await untilState(element, 'ready');
    await until(() => part(element, '[part="options"]'), 'the options panel');
    equal(await element.setOption('seat', 'walnut'), true, 'walnut selected');
    equal(await element.setOption('legs', 'brass'), true, 'brass selected');
    equal(await element.setOption('cushion', 'linen'), true, 'linen selected');
    equal(
      element.getConfiguration()?.options,
      { seat: 'walnut', legs: 'brass', backrest: 'off', cushion: 'linen' },
      'the visitor’s selections on revision 1',
    );

    await element.reload();
    await until(() => !radio(element, 'seat', 'walnut') && radio(element, 'seat', 'oak'), 'revision 2 shown');
    const reads = (await requestsOf(element)).filter((request) => request.action === '');
    equal(
      reads.map((request) => [request.status, request.ifNoneMatch]),
      [
        [200, null],
        [200, '"rev-1"'],
      ],
      'the second read answered a new revision',
    );
    equal(
      element.getConfiguration()?.options,
      { seat: 'oak', legs: 'brass', backrest: 'off', cushion: 'linen' },
      'brass and linen kept, the withdrawn walnut back to the default oak',
    );
    assert(radio(element, 'seat', 'oak')!.checked, 'the panel shows oak');
    assert(radio(element, 'legs', 'brass')!.checked, 'the panel still shows brass');
    equal(element.getConfiguration()?.price?.total, 17400, 'the price of what is kept: 149 + 25');
  });
});
