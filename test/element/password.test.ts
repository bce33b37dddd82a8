import { sendKeys } from '@web/test-runner-commands';
import { assert, cleanUp, equal, part, recordEvents, requestsOf, until, untilState, mountShare } from './helpers.js';
import type { ConfigShareElement } from '../../element/config-share.js';

afterEach(cleanUp);

const focused = (element: ConfigShareElement) => element.shadowRoot!.activeElement as HTMLInputElement | null;

async function enter(element: ConfigShareElement, password: string) {
  const input = part<HTMLInputElement>(element, 'input[name="password"]')!;
  input.value = password;
  part<HTMLButtonElement>(element, '[part="password-form"] button[type="submit"]')!.click();
}

/** The prompt's field, once the prompt's chunk has arrived. */
async function untilPrompt(element: ConfigShareElement): Promise<HTMLInputElement> {
  const field = () => part<HTMLInputElement>(element, '[part="password-form"] input[name="password"]');
  await until(field, 'the prompt');
  return field()!;
}

/** Replaces what the field holds by typing, as a visitor does (real key presses), without submitting. */
async function type(element: ConfigShareElement, password: string) {
  const input = part<HTMLInputElement>(element, 'input[name="password"]')!;
  input.focus();
  input.select();
  await sendKeys({ type: password });
}

/** Types and presses Enter: the form's implicit submission, which a disabled submit button would swallow. */
async function typeAndEnter(element: ConfigShareElement, password: string) {
  await type(element, password);
  await sendKeys({ press: 'Enter' });
}

/** Whether the prompt shows its refusal now. */
const refusalShown = (element: ConfigShareElement) =>
  !!part(element, '#password-error')?.textContent?.includes('not correct') ||
  part(element, 'input[name="password"]')?.getAttribute('aria-invalid') === 'true';

/** Records each time the refusal shows beside a password the share did not refuse (`refused` says which it did). */
function watchRefusals(element: ConfigShareElement, refused: (password: string) => boolean) {
  const wrong: string[] = [];
  const look = () => {
    const value = part<HTMLInputElement>(element, 'input[name="password"]')?.value ?? '';
    if (refusalShown(element) && !refused(value)) wrong.push(value);
  };
  const observer = new MutationObserver(look);
  observer.observe(element.shadowRoot!, { subtree: true, childList: true, attributes: true, characterData: true });
  // Typing changes no markup: look once the element has rendered what the keystroke changed.
  const typing = () => void element.updateComplete.then(look);
  element.shadowRoot!.addEventListener('input', typing);
  return {
    wrong,
    stop: () => {
      observer.disconnect();
      element.shadowRoot!.removeEventListener('input', typing);
    },
  };
}

/** The passwords the share's reads carried, in order. */
const passwordsSent = async (element: ConfigShareElement) =>
  (await requestsOf(element)).map((request) => request.password);

/** Waits for a wrong password the fake BFF holds for this share, and lets it refuse it (a slow check finishing). */
async function release(element: ConfigShareElement) {
  const held = async () => (await requestsOf(element)).some((request) => request.status === undefined);
  await until(held, 'a check under way');
  await fetch(`/fake/release?project=${encodeURIComponent(element.projectId)}`);
}

/** The prompt shows a check under way: the form busy, its button saying so (and still there to press). */
async function untilChecking(element: ConfigShareElement) {
  await until(() => part(element, '[part="password-form"]')?.getAttribute('aria-busy') === 'true', 'aria-busy');
  const button = part<HTMLButtonElement>(element, '[part="password-form"] button[type="submit"]')!;
  equal(button.textContent!.trim(), 'Checking…', 'the button says a check runs');
  assert(button.querySelector('.spinner'), 'a spinner');
  assert(!button.disabled, 'the button still takes the next password');
}

describe('<config-share> password', () => {
  it('prompts with a focused field; a wrong password shows an error; the right one opens, remembered', async () => {
    const events = recordEvents('config-share-password-required');
    const element = mountShare('password');
    await untilState(element, 'password');
    equal(events.seen.length, 1, 'password-required event');
    const input = await untilPrompt(element);
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

  it('checks a password entered while a wrong one is checked, and lets the visitor in', async () => {
    const element = mountShare('heldpassword');
    await untilState(element, 'password');
    await untilPrompt(element);
    const watch = watchRefusals(element, (password) => password === 'wrong');

    await typeAndEnter(element, 'wrong');
    await untilChecking(element);
    // The right password at once, while the wrong one is still being checked.
    await typeAndEnter(element, 'secret');
    await untilChecking(element);
    equal(await passwordsSent(element), [null, 'wrong'], 'one check at a time');
    await release(element);
    await untilState(element, 'ready');
    watch.stop();

    equal(watch.wrong, [], 'no refusal beside a password that was not refused');
    equal(
      (await requestsOf(element)).map((request) => [request.status, request.password]),
      [
        [401, null],
        [401, 'wrong'],
        [200, 'secret'],
      ],
      'reads: the right password checked next, not dropped',
    );
  });

  it('checks the latest password entered, and shows a refusal only beside the password refused', async () => {
    const element = mountShare('heldpassword');
    await untilState(element, 'password');
    const input = await untilPrompt(element);
    const watch = watchRefusals(element, (password) => password === 'first' || password === 'third');

    await typeAndEnter(element, 'first');
    await untilChecking(element);
    await typeAndEnter(element, 'second');
    await typeAndEnter(element, 'third');
    await release(element);
    await release(element);
    await until(() => refusalShown(element), 'the refusal of "third"');
    equal(input.value, 'third', 'beside the password refused');
    equal(part(element, '[part="password-form"] button')!.textContent!.trim(), 'Open', 'no check under way');
    equal(await passwordsSent(element), [null, 'first', 'third'], '"second", replaced before its turn, never sent');

    await type(element, 'thirds');
    await until(() => !refusalShown(element), 'the refusal gone once the field changes');

    // A refusal that arrives while the visitor is typing the next password is not shown beside it.
    await typeAndEnter(element, 'fourth');
    await untilChecking(element);
    await type(element, 'fifth');
    await release(element);
    await until(() => part(element, '[part="password-form"]')?.getAttribute('aria-busy') === 'false', 'the answer');
    equal(await passwordsSent(element), [null, 'first', 'third', 'fourth'], 'reads');
    assert(!refusalShown(element), 'no refusal beside "fifth", never checked');
    equal(element.getAttribute('state'), 'password', 'still asking');
    watch.stop();
    equal(watch.wrong, [], 'no refusal beside a password that was not refused');
  });
});
