import type { ConfigShareElement } from '../../element/config-share.js';
import type { ModelViewerElement } from '../../element/features/ar.js';
import { assert, cleanUp, equal, mountShare, part, recordEvents, sleep, until, untilState } from './helpers.js';

afterEach(cleanUp);

/** Scripts this page has fetched so far whose URL matches. */
const fetched = (pattern: RegExp) =>
  performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => pattern.test(name));

/** model-viewer's module, as the dev server serves it (the build names its chunk model-viewer-module.min-<hash>.js). */
const MODEL_VIEWER = /@google\/model-viewer\/|model-viewer-module/;

const modelViewerOf = (element: ConfigShareElement) => part<ModelViewerElement>(element, 'model-viewer');

/** The capability queries model-viewer answers before it picks its AR mode (WebXR, then XR form factors). */
interface XrNavigator {
  xr?: { isSessionSupported?(mode: string): Promise<boolean> };
  userAgentData?: { getHighEntropyValues?(hints: string[]): Promise<unknown> };
}

/**
 * Waits for the element's `<model-viewer>` and for model-viewer to have chosen its AR mode: the browser
 * answers these queries in the order asked, so ours settle after model-viewer's own.
 */
async function settledModelViewer(element: ConfigShareElement): Promise<ModelViewerElement> {
  await until(() => modelViewerOf(element), 'the model-viewer element', 40_000);
  const viewer = modelViewerOf(element)!;
  await viewer.updateComplete;
  const { xr, userAgentData } = navigator as Navigator & XrNavigator;
  await Promise.allSettled([
    xr?.isSessionSupported?.('immersive-ar'),
    userAgentData?.getHighEntropyValues?.(['formFactor']),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return viewer;
}

describe('<config-share> AR through model-viewer', () => {
  // First in this file (one page per file): nothing before it has fetched model-viewer.
  it('a multi-model scene never fetches model-viewer nor offers AR', async () => {
    const element = mountShare('pair');
    await untilState(element, 'ready');
    assert(await element.screenshot(), 'the scene is drawn');
    // Past the idle moment after the first frame at which a one-model scene adds model-viewer:
    // what is asserted is that nothing comes, so only a window can show it.
    await sleep(2500);
    equal(modelViewerOf(element), null, 'no model-viewer element');
    equal(part(element, '[part="ar"]'), null, 'no AR button');
    equal(customElements.get('model-viewer'), undefined, 'model-viewer is not defined');
    equal(fetched(MODEL_VIEWER), [], 'model-viewer was not fetched');
  });

  it('a one-model scene adds <model-viewer ar> lazily and hides the AR button where AR cannot start', async () => {
    const element = mountShare('plain');
    await untilState(element, 'ready');
    await until(() => modelViewerOf(element), 'the model-viewer element', 40_000);
    assert(fetched(MODEL_VIEWER).length > 0, 'model-viewer was fetched for the one-model scene');
    const viewer = modelViewerOf(element)!;
    assert(customElements.get('model-viewer'), 'model-viewer is defined');
    assert(
      viewer.getAttribute('src')?.endsWith('/fake/model.glb'),
      `src is the model's url: ${viewer.getAttribute('src')}`,
    );
    assert(viewer.hasAttribute('ar'), 'the ar attribute');
    equal(viewer.getAttribute('ar-modes'), 'webxr scene-viewer quick-look', 'ar-modes');
    equal(viewer.getAttribute('orientation'), '0rad 0rad 0rad', 'orientation from the rotation');
    equal(viewer.getAttribute('scale'), '1 1 1', 'scale');
    equal(viewer.getAttribute('reveal'), 'manual', 'the model loads only when AR starts');
    assert(viewer.inert, 'inert while AR is not presenting: no focus stop, not in the accessibility tree');

    await settledModelViewer(element);
    equal(viewer.loaded, false, 'no second parse of the model for AR that is not started');
    equal(viewer.canActivateAR, false, 'headless desktop Chromium has no AR');
    equal(part(element, '[part="ar"]'), null, 'no AR button without AR');
  });

  it('shows a labelled AR button when model-viewer can start AR, and the click starts it', async () => {
    const errors = recordEvents('config-share-error');
    const element = mountShare('plain');
    await untilState(element, 'ready');
    const viewer = await settledModelViewer(element);
    equal(part(element, '[part="ar"]'), null, 'hidden before');

    // A device with AR, as model-viewer reports it: canActivateAR is read again at each load event.
    let activations = 0;
    Object.defineProperty(viewer, 'canActivateAR', { configurable: true, get: () => true });
    Object.defineProperty(viewer, 'activateAR', { configurable: true, value: async () => void activations++ });
    viewer.dispatchEvent(new CustomEvent('load', { detail: { url: viewer.getAttribute('src') } }));
    await until(() => part(element, '[part="ar"]'), 'the AR button');
    const button = part<HTMLButtonElement>(element, '[part="ar"]')!;
    equal(button.tagName, 'BUTTON', 'a real button');
    equal(button.type, 'button', 'not a submit button');
    equal(button.textContent?.trim(), 'View in AR', 'labelled from the strings');
    button.focus();
    equal(element.shadowRoot!.activeElement, button, 'reachable by keyboard');
    button.click();
    equal(activations, 1, 'activateAR called by the click');

    element.strings = { viewInAr: 'In AR ansehen' };
    await element.updateComplete;
    equal(part(element, '[part="ar"]')?.textContent?.trim(), 'In AR ansehen', 'a replaced string');

    // AR that fails to start is an event, never an exception into the page.
    Object.defineProperty(viewer, 'activateAR', {
      configurable: true,
      value: () => Promise.reject(new Error('session refused')),
    });
    part<HTMLButtonElement>(element, '[part="ar"]')!.click();
    await until(() => errors.seen.some((event) => event.detail.type === 'ar'), 'the ar error event');
    equal(
      errors.seen.find((event) => event.detail.type === 'ar')!.detail.message,
      'session refused',
      'the error message',
    );
    errors.stop();
  });

  it('maps the model rotation (XYZ radians) and scale, or its matrix, to orientation and scale', async () => {
    const { modelViewerTransform } = await import('../../element/features/ar.js');
    const base = { transform: {} as unknown, rotation: { x: 0, y: 0, z: 0 }, scale: { x: 1, y: 1, z: 1 } };
    equal(
      modelViewerTransform({ ...base, rotation: { x: 0, y: Math.PI / 2, z: 0 }, scale: { x: 2, y: 3, z: 4 } }),
      { orientation: '0rad 0rad 1.570796rad', scale: '2 3 4' },
      'a yaw',
    );
    equal(
      modelViewerTransform({ ...base, rotation: { x: 0.5, y: 0, z: 0 } }).orientation,
      '0rad 0.5rad 0rad',
      'a pitch',
    );
    // Column-major: a 90° turn about Z, scaled by 2, moved by (5, 0, 0).
    const matrix = [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 5, 0, 0, 1];
    equal(
      modelViewerTransform({ ...base, transform: { matrix } }),
      { orientation: '1.570796rad 0rad 0rad', scale: '2 2 2' },
      'from the matrix',
    );
  });
});
