import type { ConfigShareElement } from '../../element/config-share.js';
import type { ModelViewerElement } from '../../element/features/ar.js';
import { assert, cleanUp, equal, mountShare, part, recordEvents, sleep, until, untilState } from './helpers.js';
import { MODEL_FILES, SIGNED_PATHS, gltfJson } from './model-files.js';

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
  await until(() => modelViewerOf(element), 'the model-viewer element', 60_000);
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
  it('a multi-model scene adds model-viewer too, with the first model until an export is ready', async () => {
    const element = mountShare('pair');
    await untilState(element, 'ready');
    // The first fetch of model-viewer's module in this page, through the dev server: slow.
    await until(() => modelViewerOf(element), 'the model-viewer element', 80_000);
    const viewer = await settledModelViewer(element);
    assert(fetched(MODEL_VIEWER).length > 0, 'model-viewer was fetched');
    assert(viewer.getAttribute('src')?.endsWith('/fake/model.glb'), `the first model: ${viewer.getAttribute('src')}`);
    // Nothing is exported where AR cannot start.
    await sleep(1500);
    assert(!viewer.getAttribute('src')?.startsWith('blob:'), 'no export without AR');
    equal(part(element, '[part="ar"]'), null, 'no AR button without AR');
  });

  for (const file of MODEL_FILES) {
    it(`a one-model scene (${file} file) adds <model-viewer ar> lazily, no button where AR cannot start`, async () => {
      const element = mountShare('plain', file);
      await untilState(element, 'ready');
      await until(() => modelViewerOf(element), 'the model-viewer element', 60_000);
      assert(fetched(MODEL_VIEWER).length > 0, 'model-viewer was fetched for the one-model scene');
      const viewer = modelViewerOf(element)!;
      assert(customElements.get('model-viewer'), 'model-viewer is defined');
      assert(
        viewer.getAttribute('src')?.endsWith(SIGNED_PATHS[file]),
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

    it(`shows a labelled AR button where AR can start, and the click starts it (${file} file)`, async () => {
      const errors = recordEvents('config-share-error');
      const element = mountShare('plain', file);
      await untilState(element, 'ready');
      const viewer = await settledModelViewer(element);
      equal(part(element, '[part="ar"]'), null, 'hidden before');

      // A device with AR, as model-viewer reports it: canActivateAR is read again at each load event.
      let activations = 0;
      Object.defineProperty(viewer, 'canActivateAR', { configurable: true, get: () => true });
      Object.defineProperty(viewer, 'activateAR', { configurable: true, value: async () => void activations++ });
      viewer.dispatchEvent(new CustomEvent('load', { detail: { url: viewer.getAttribute('src') } }));
      await until(() => part(element, '[part="ar"]'), 'the AR button');
      let button = part<HTMLButtonElement>(element, '[part="ar"]')!;
      equal(button.tagName, 'BUTTON', 'a real button');
      equal(button.type, 'button', 'not a submit button');
      // The configured scene is exported ahead: until it is in model-viewer, the button waits.
      equal(button.textContent?.trim(), 'Preparing AR…', 'says it is preparing');
      assert(button.disabled, 'disabled while preparing');
      await until(() => !part<HTMLButtonElement>(element, '[part="ar"]')?.disabled, 'the export', 20_000);
      button = part<HTMLButtonElement>(element, '[part="ar"]')!;
      equal(button.textContent?.trim(), 'View in AR', 'labelled from the strings');
      assert(viewer.getAttribute('src')?.startsWith('blob:'), `the export is the src: ${viewer.getAttribute('src')}`);
      // model-viewer reads the export with its own loader, which has no meshopt decoder: a delivery file's is plain.
      const exported = await (await fetch(viewer.getAttribute('src')!)).arrayBuffer();
      const used = (await gltfJson(exported)).extensionsUsed ?? [];
      assert(!used.some((name) => name.includes('meshopt')), `the export needs no decoder: ${used.join(', ')}`);
      equal(viewer.getAttribute('ar-modes'), 'webxr quick-look', 'no Scene Viewer with a blob src');
      equal(viewer.getAttribute('orientation'), null, 'the export carries the placement');
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
  }

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

  it('re-exports after each change, revoking the replaced URL; placement and scale from settings', async () => {
    const { createArView } = await import('../../element/features/ar.js');
    const stage = document.createElement('div');
    document.body.append(stage);
    let listener = () => undefined as void;
    let exports = 0;
    const source = {
      exportConfigured: async () => new Blob([`export ${++exports}`], { type: 'model/gltf-binary' }),
      onSceneChange: (callback: () => void) => ((listener = callback), () => undefined),
    };
    const readiness: boolean[] = [];
    const errors: string[] = [];
    const model = {
      id: 'cube',
      fileName: 'cube.glb',
      url: `${location.origin}/fake/model.glb`,
      transform: {},
      position: { x: 0, y: 0, z: 0 },
      rotation: { x: 0, y: 0, z: 0 },
      scale: { x: 1, y: 1, z: 1 },
      partTransforms: {},
      deletedParts: [],
      pivotData: {},
    };
    const ar = await createArView(stage, model, {
      label: 'Cube',
      onAvailability: () => undefined,
      onError: (message) => errors.push(message),
      onReady: (ready) => readiness.push(ready),
      source,
      settings: { placement: 'wall', scale: 'fixed' },
    });
    try {
      equal(ar.element.getAttribute('ar-placement'), 'wall', 'ar-placement');
      equal(ar.element.getAttribute('ar-scale'), 'fixed', 'ar-scale');
      equal(ar.ready, false, 'not ready before the first export');
      Object.defineProperty(ar.element, 'canActivateAR', { configurable: true, get: () => true });
      ar.element.dispatchEvent(new CustomEvent('load'));
      await until(() => ar.ready, 'the first export', 20_000);
      const first = ar.element.getAttribute('src')!;
      equal(await (await fetch(first)).text(), 'export 1', 'the export is the src');

      listener();
      equal(ar.ready, false, 'a change makes the export stale at once');
      await until(() => ar.ready, 'the second export', 20_000);
      const second = ar.element.getAttribute('src')!;
      equal(await (await fetch(second)).text(), 'export 2', 'the new export');
      const revoked = await fetch(first).then(
        () => false,
        () => true,
      );
      assert(revoked, 'the replaced URL is revoked');
      equal(readiness, [true, false, true], 'readiness reported');
      equal(errors, [], 'no errors');
    } finally {
      ar.dispose();
      stage.remove();
    }
  });
});
