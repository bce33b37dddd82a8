import {
  assert,
  cleanUp,
  equal,
  mount,
  mountShare,
  part,
  projectOf,
  recordEvents,
  requestsOf,
  until,
  untilState,
} from './helpers.js';

afterEach(cleanUp);

describe('<config-share> states', () => {
  it('goes from loading to ready and announces it in a live region', async () => {
    const events = recordEvents('config-share-load');
    const element = mountShare('plain');
    equal(element.getAttribute('state'), 'loading', 'initial state');
    await untilState(element, 'ready');
    const status = part(element, '[part="status"]')!;
    equal(status.getAttribute('role'), 'status', 'the status is a live region');
    assert(status.textContent!.includes('Project plain'), `status says ready: ${status.textContent}`);
    equal(events.seen.length, 1, 'one load event');
    equal(events.seen[0].detail.project.name, 'Project plain', 'the load event carries the project');
    assert(events.seen[0].bubbles && events.seen[0].composed, 'the load event bubbles and is composed');
    events.stop();
  });

  it('402: a neutral unavailable state, never the reason, and no second request', async () => {
    const events = recordEvents('config-share-error');
    const element = mountShare('locked');
    // The element's one retry path (a 429's, after its Retry-After of 1 s), taken by a neighbour: once that retry
    // has come, a retry of the 402 would have come too.
    const busy = mountShare('busy');
    await untilState(element, 'unavailable');
    await until(async () => (await requestsOf(busy)).length === 2, "the neighbour's retry");
    const text = element.shadowRoot!.textContent!;
    assert(!/billing|owner/i.test(text), `the reason stays hidden: ${text}`);
    equal((await requestsOf(element)).length, 1, 'requests');
    const [event] = events.seen.filter((seen) => seen.target === element);
    equal(event.detail.type, 'unavailable', 'error event type');
    assert(!/billing/.test(event.detail.message), 'the event does not name the reason either');
    events.stop();
  });

  it('404: the not-found state', async () => {
    const element = mountShare('gone');
    await untilState(element, 'not-found');
    assert(part(element, '[part="status"]')!.textContent!.includes('could not be found'), 'not-found message');
  });

  it('403 domain_not_allowed: not-found for shoppers, one console warning and a typed event for devs', async () => {
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    const events = recordEvents('config-share-error');
    try {
      const element = mountShare('refused');
      await untilState(element, 'not-found');
      assert(part(element, '[part="status"]')!.textContent!.includes('could not be found'), 'not-found message');
      await element.reload();
      await untilState(element, 'not-found');
      equal(warnings.length, 1, 'one warning, however often the share is read');
      const warning = String(warnings[0][0]);
      assert(warning.includes(`"${location.host}"`), `the warning names the page's host: ${warning}`);
      assert(/allowed hosts/.test(warning) && warning.includes('domainRestrictions'), `names the setting: ${warning}`);
      equal(
        events.seen.map((event) => event.detail.type),
        ['domain_not_allowed', 'domain_not_allowed'],
        'error event types',
      );
      assert(events.seen[0].detail.message.includes(location.host), 'the event message names the host');
    } finally {
      console.warn = warn;
      events.stop();
    }
  });

  it('a wrong token is not-found too', async () => {
    const element = mount({ 'project-id': projectOf('plain'), token: 'rotated' });
    await untilState(element, 'not-found');
  });

  it('429: waits for Retry-After, then retries once', async () => {
    const element = mountShare('busy');
    const started = Date.now();
    await untilState(element, 'ready');
    assert(Date.now() - started >= 900, 'waited about a second');
    equal(
      (await requestsOf(element)).map((request) => request.status),
      [429, 200],
      'statuses',
    );
  });

  it('a network failure: the error state with a retry button that reads again', async () => {
    const events = recordEvents('config-share-error');
    const element = mountShare('down');
    await untilState(element, 'error');
    equal(events.seen[0].detail.type, 'network', 'error type');
    const retry = part<HTMLButtonElement>(element, 'button')!;
    equal(retry.textContent, 'Try again', 'retry label');
    // Chromium itself may resend a GET whose connection was reset, so count before and after.
    const before = (await requestsOf(element)).length;
    retry.click();
    await until(async () => (await requestsOf(element)).length > before, 'the retry request');
    await untilState(element, 'error');
    assert((await requestsOf(element)).length > before, 'the retry read again');
    events.stop();
  });

  it('share-url names the share instead of project-id and token', async () => {
    const projectId = projectOf('plain');
    const element = mount({ 'share-url': `https://app.example/share/${projectId}/tok` });
    await untilState(element, 'ready');
  });

  it('bad attributes give the error state and an event, never an exception', async () => {
    const thrown: unknown[] = [];
    const onError = (event: ErrorEvent | PromiseRejectionEvent) =>
      thrown.push('reason' in event ? event.reason : event.error);
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onError);
    const events = recordEvents('config-share-error');
    const missing = mount({});
    const malformed = mount({ 'share-url': 'http://[not a url' });
    const wrongPath = mount({ 'share-url': 'https://app.example/elsewhere' });
    const badBase = mount({ 'project-id': projectOf('plain'), token: 'tok', 'api-base': 'http://[bad' });
    for (const element of [missing, malformed, wrongPath, badBase]) await untilState(element, 'error');
    await missing.reload();
    assert(
      events.seen.some((event) => event.detail.type === 'config'),
      'a config error event',
    );
    const elements = [missing, malformed, wrongPath, badBase];
    await until(() => elements.every((element) => events.seen.some((seen) => seen.target === element)), 'every event');
    // A rejection left unhandled is reported in a task of its own after the one that dropped it: wait for the next.
    await new Promise((resolve) => setTimeout(resolve, 0));
    equal(thrown, [], 'nothing thrown at the page');
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onError);
    events.stop();
  });

  it('strings replace the texts', async () => {
    const element = mountShare('gone');
    element.strings = { notFound: 'Introuvable.' };
    await untilState(element, 'not-found');
    equal(part(element, '[part="status"]')!.textContent, 'Introuvable.', 'translated text');
  });
});
