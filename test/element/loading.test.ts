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

describe('<config-share> loading and revalidation', () => {
  it('reload() sends If-None-Match; the 304 keeps the payload and renders nothing again', async () => {
    const events = recordEvents('config-share-load');
    const element = mountShare('plain');
    await untilState(element, 'ready');
    await until(() => part(element, 'canvas'), 'the canvas');
    const canvas = part(element, 'canvas');
    const form = part(element, '[part="form"]');
    await element.reload();
    const requests = await requestsOf(element);
    equal(
      requests.map((request) => [request.status, request.ifNoneMatch]),
      [
        [200, null],
        [304, '"rev-1"'],
      ],
      'read then revalidation',
    );
    equal(element.getAttribute('state'), 'ready', 'still ready');
    assert(part(element, 'canvas') === canvas && part(element, '[part="form"]') === form, 'the same scene and form');
    equal(events.seen.length, 1, 'no second load event');
    events.stop();
  });

  it('a second element of the same share reuses the page payload through a 304', async () => {
    const projectId = projectOf('plain');
    const first = mount({ 'project-id': projectId, token: 'tok' });
    await untilState(first, 'ready');
    const second = mount({ 'project-id': projectId, token: 'tok' });
    await untilState(second, 'ready');
    equal(
      (await requestsOf(first)).map((request) => request.status),
      [200, 304],
      'statuses',
    );
    assert(part(second, '[part="form"] input[name="name"]'), 'the second element shows the form');
  });

  it('two elements of different shares work side by side', async () => {
    const plain = mountShare('plain');
    const gone = mountShare('gone');
    const other = mountShare('broken');
    await Promise.all([untilState(plain, 'ready'), untilState(gone, 'not-found'), untilState(other, 'ready')]);
    equal((await requestsOf(plain)).length, 1, 'one read each');
  });

  it('a detached element gives its WebGL canvas back and rebuilds it when it returns', async () => {
    const element = mountShare('plain');
    await untilState(element, 'ready');
    await until(() => part(element, 'canvas'), 'the canvas');
    element.remove();
    await until(() => !part(element, 'canvas'), 'the canvas removed');
    document.body.append(element);
    await until(() => part(element, 'canvas'), 'a new canvas');
    equal((await requestsOf(element)).length, 1, 'no new read');
  });

  it('changing the attributes loads the new share', async () => {
    const element = mountShare('gone');
    await untilState(element, 'not-found');
    element.setAttribute('project-id', projectOf('plain'));
    await untilState(element, 'ready');
  });
});
