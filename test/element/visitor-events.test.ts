import { flushVisitorEvents, queueVisitorEvent, sessionId } from '../../element/features/visitor-events.js';
import {
  assert,
  cleanUp,
  equal,
  eventBatchesOf,
  eventsOf,
  mount,
  part,
  projectOf,
  recordEvents,
  until,
  untilState,
  type LoggedRequest,
} from './helpers.js';

afterEach(cleanUp);

const mountStool = (scenario = 'stool', attributes: Record<string, string> = {}) =>
  mount({ 'project-id': projectOf(scenario), token: 'tok', locale: 'en-US', ...attributes });

/** A sink of the page's queue aimed at the fake BFF's events route for a fresh project. */
function sinkFor(scenario = 'stool') {
  const projectId = projectOf(scenario);
  const refused: number[] = [];
  const batches = async (): Promise<LoggedRequest[]> =>
    ((await (await fetch(`/fake/log?project=${projectId}`)).json()) as LoggedRequest[]).filter(
      (request) => request.action === '/events',
    );
  return {
    sink: { url: `/share/${projectId}/tok/events`, refused: (status: number) => refused.push(status) },
    batches,
    refused,
  };
}

describe('<config-share> visitor events', () => {
  it('sends view, the visitor and api changes and the latest price, as text/plain with one sessionId', async () => {
    const element = mountStool();
    await untilState(element, 'ready');
    await until(() => part(element, '[part="options"]'), 'the options');
    part<HTMLInputElement>(element, 'input[name="option:seat"][value="walnut"]')!.click();
    await element.setOption('backrest', 'on');
    const backrestPriced = (event: { type: string; data: Record<string, any> }) =>
      event.type === 'price.calculated' && event.data.options.backrest === 'on';
    await until(async () => (await eventsOf(element)).some(backrestPriced), 'the last price sent');
    const batches = await eventBatchesOf(element);
    for (const batch of batches) {
      assert(batch.contentType?.startsWith('text/plain'), `text/plain, no preflight: ${batch.contentType}`);
      equal(batch.body.sessionId, sessionId, 'the page session');
      assert(
        batch.body.events.filter((event: { type: string }) => event.type === 'price.calculated').length <= 1,
        'one price',
      );
    }
    assert(/^[A-Za-z0-9_-]{22}$/.test(sessionId), `128 random bits, base64url: ${sessionId}`);
    const events = await eventsOf(element);
    equal(events[0].type, 'view', 'view first');
    equal(
      events.filter((event) => event.type === 'option.changed').map((event) => [event.data.blockId, event.data.source]),
      [
        ['seat', 'visitor'],
        ['backrest', 'api'],
      ],
      'the visitor and api changes, not the rule move',
    );
    const price = events.filter((event) => event.type === 'price.calculated').at(-1)!.data;
    equal([price.total, price.currency, price.options.backrest], [24400, 'EUR', 'on'], 'the latest price');
    assert(!Number.isNaN(Date.parse(events[0].at)), 'an ISO time');
  });

  it('events="off" queues and sends nothing, not even view', async () => {
    const element = mountStool('stool', { events: 'off' });
    await untilState(element, 'ready');
    await until(() => part(element, '[part="options"]'), 'the options');
    await element.setOption('seat', 'walnut');
    flushVisitorEvents();
    await element.reload();
    equal(await eventBatchesOf(element), [], 'nothing sent');
  });

  it('switching events off drops what waits', async () => {
    const element = mountStool();
    await untilState(element, 'ready');
    element.setAttribute('events', 'off');
    await element.updateComplete;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    flushVisitorEvents();
    await element.reload();
    equal(await eventBatchesOf(element), [], 'the view was dropped');
  });

  it('a batch goes at 20 events, cut by count and by 16 KB', async () => {
    const { sink, batches } = sinkFor();
    for (let i = 0; i < 25; i++) queueVisitorEvent(sink, 'ar.opened');
    await until(async () => (await batches()).length >= 1, 'the first batch at 20');
    equal((await batches())[0].body.events.length, 20, 'twenty in the first');
    await until(async () => (await batches()).length === 2, 'the rest after the delay');
    equal((await batches())[1].body.events.length, 5, 'the five left');

    const big = sinkFor();
    const data = { blob: 'x'.repeat(1500) };
    for (let i = 0; i < 11; i++) queueVisitorEvent(big.sink, 'viewer.screenshot', data);
    await until(async () => (await big.batches()).length >= 2, 'cut by size');
    const sizes = (await big.batches()).map((batch) => JSON.stringify(batch.body).length);
    assert(
      sizes.every((size) => size <= 16 * 1024),
      `each at most 16 KB: ${sizes}`,
    );
    equal(
      (await big.batches()).reduce((sum, batch) => sum + batch.body.events.length, 0),
      11,
      'all sent',
    );
  });

  it('visibilitychange to hidden sends at once; pagehide uses sendBeacon with a string', async () => {
    const { sink, batches } = sinkFor();
    queueVisitorEvent(sink, 'ar.opened');
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    delete (document as { visibilityState?: unknown }).visibilityState;
    await until(async () => (await batches()).length === 1, 'sent on hidden', 1500);

    const beacons: [string, unknown][] = [];
    const real = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url: string | URL, body?: BodyInit | null) => {
      beacons.push([String(url), body]);
      return real(url, body);
    };
    queueVisitorEvent(sink, 'configuration.saved');
    dispatchEvent(new PageTransitionEvent('pagehide'));
    delete (navigator as { sendBeacon?: unknown }).sendBeacon;
    equal(beacons.length, 1, 'one beacon');
    equal([beacons[0][0], typeof beacons[0][1]], [sink.url, 'string'], 'a string body');
    await until(async () => (await batches()).length === 2, 'the beacon arrived');
  });

  it('404 stops sending and says so; 429 waits for Retry-After', async () => {
    const errors = recordEvents('config-share-error');
    const gone = mountStool('stoolgone');
    await untilState(gone, 'ready');
    await until(() => errors.seen.some((event) => event.detail.type === 'events'), 'an events error', 10_000);
    await gone.setOption('seat', 'walnut');
    flushVisitorEvents();
    equal((await eventBatchesOf(gone)).length, 1, 'nothing after the refusal');
    errors.stop();

    // The fake answers the first batch 429 with Retry-After 3 s; the next waits for it (2 s batching alone would not).
    const busy = sinkFor('stoolbusy');
    queueVisitorEvent(busy.sink, 'ar.opened');
    flushVisitorEvents();
    await until(async () => (await busy.batches()).length === 1, 'the first, refused');
    queueVisitorEvent(busy.sink, 'configuration.saved');
    await until(async () => (await busy.batches()).length === 2, 'sent after Retry-After', 10_000);
    const [refused, held] = await busy.batches();
    equal([refused.status, held.body.events[0].type], [429, 'configuration.saved'], 'the held event');
    assert(
      held.receivedAt - refused.receivedAt >= 2900,
      `held until Retry-After: ${held.receivedAt - refused.receivedAt} ms`,
    );
    equal(busy.refused, [], 'a 429 is not a refusal for good');
  });
});
