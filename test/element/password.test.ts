import { assert, cleanUp, equal, part, recordEvents, requestsOf, until, untilState, mountShare } from './helpers.js';
import type { ConfigShareElement } from '../../element/config-share.js';

afterEach(cleanUp);

const focused = (element: ConfigShareElement) => element.shadowRoot!.activeElement as HTMLInputElement | null;

async function enter(element: ConfigShareElement, password: string) {
  const input = part<HTMLInputElement>(element, 'input[name="password"]')!;
  input.value = password;
  part<HTMLButtonElement>(element, '[part="password-form"] button[type="submit"]')!.click();
}

describe('<config-share> password', () => {
  it('prompts with a focused field; a wrong password shows an error; the right one opens, remembered', async () => {
    const events = recordEvents('config-share-password-required');
    const element = mountShare('password');
    await untilState(element, 'password');
    equal(events.seen.length, 1, 'password-required event');
    const input = part<HTMLInputElement>(element, '[part="password-form"] input[name="password"]')!;
    equal(part(element, `label[for="${input.id}"]`)?.textContent, 'Password', 'label');
    await until(() => focused(element) === input, 'focus on the password field');

    await enter(element, 'wrong');
    await until(() => input.getAttribute('aria-invalid') === 'true', 'aria-invalid');
    equal(element.getAttribute('state'), 'password', 'still asking');
    const error = part(element, '#password-error')!;
    assert(error.textContent!.includes('not correct'), 'the error next to the field');
    assert(input.getAttribute('aria-describedby')!.includes('password-error'), 'the field is described by its error');
    await until(() => focused(element) === input, 'focus back on the field');

    await enter(element, 'secret');
    await untilState(element, 'ready');

    await element.reload();
    equal(element.getAttribute('state'), 'ready', 'no new prompt');
    const requests = await requestsOf(element);
    equal(
      requests.map((request) => [request.status, request.password]),
      [
        [401, null],
        [401, 'wrong'],
        [200, 'secret'],
        [304, 'secret'],
      ],
      'reads',
    );
    equal(events.seen.length, 1, 'asked once');
    events.stop();
  });
});
