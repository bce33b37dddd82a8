import { fetchModelUrls } from '../../element/features/api.js';
import {
  assert,
  projectOf,
  cleanUp,
  equal,
  part,
  recordEvents,
  requestsOf,
  until,
  untilState,
  mountShare,
} from './helpers.js';
import { MODEL_FILES } from './model-files.js';

afterEach(cleanUp);

describe('<config-share> models and screenshots', () => {
  it('fetches missing URLs in batches of at most 20 and reports the models still missing', async () => {
    const events = recordEvents('config-share-model-missing');
    const element = mountShare('many');
    await untilState(element, 'ready');
    await until(() => events.seen.length > 0, 'the model-missing event', 30_000);
    equal(events.seen[0].detail.modelIds, ['m24', 'm25'], 'missing ids');
    assert(events.seen[0].bubbles && events.seen[0].composed, 'bubbles and composed');
    const batches = (await requestsOf(element)).filter((request) => request.action === '/model-urls');
    equal(
      batches.map((request) => request.body.modelIds),
      [['m21', 'm22', 'm23', 'm24', 'm25']],
      'one batch for the five unsigned models',
    );
    assert(part(element, '.notice')?.textContent?.includes('could not be shown'), 'a quiet notice');
    equal(element.getAttribute('state'), 'ready', 'the scene is still ready');
    events.stop();
  });

  it('asks model-urls at most 20 ids per call', async () => {
    const projectId = projectOf('many');
    const ids = Array.from({ length: 25 }, (_, i) => `m${i + 1}`);
    const urls = await fetchModelUrls({ apiBase: location.origin, projectId, token: 'tok' }, ids);
    equal(Object.keys(urls).length, 23, 'all but m24 and m25 answered');
    const log = await (await fetch(`/fake/log?project=${projectId}`)).json();
    equal(
      log.map((request: { body: { modelIds: string[] } }) => request.body.modelIds.length),
      [20, 5],
      'batch sizes',
    );
  });

  it('skips a model whose file fails to load, with the same event', async () => {
    const events = recordEvents('config-share-model-missing');
    mountShare('broken');
    // The page may still be starting model-viewer for an earlier test's AR (every scene has AR now).
    await until(() => events.seen.length > 0, 'the model-missing event', 75_000);
    equal(events.seen[0].detail.modelIds, ['broken'], 'missing ids');
    events.stop();
  });

  for (const file of MODEL_FILES)
    it(`screenshot() returns a PNG data URL of the rendered scene, the model's ${file} file`, async () => {
      const element = mountShare('plain', file);
      await untilState(element, 'ready');
      const png = await element.screenshot();
      assert(png && png.startsWith('data:image/png;base64,'), `a PNG data URL: ${png?.slice(0, 40)}`);
      const image = new Image();
      image.src = png;
      await image.decode();
      assert(image.width > 0 && image.height > 0, 'decodes as an image');
      // The cube is red on white: some pixel is not white.
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [image.width, image.height];
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, image.width, image.height).data;
      assert(
        pixels.some((value, index) => index % 4 !== 3 && value < 200),
        'the model is drawn',
      );
    });
});
