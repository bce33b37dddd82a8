import { emulateMedia, sendKeys, sendMouse } from '@web/test-runner-commands';
import type { ConfigShareElement } from '../../element/config-share.js';
import type { CameraView } from '../../element/features/viewer.js';
import type { PublicProject } from '#core/wire/public-project.js';
import { assert, cleanUp, equal, mount, part, projectOf, until, untilState } from './helpers.js';
import { stoolGlb } from './stool-glb.js';

/**
 * Framing (docs/scene-format.md, "Framing"), read from the drawn pixels: the coloured stool on a white background, its
 * drawn extent inside the canvas with a margin of 5% of the shorter side, spanning 60% of the width or height.
 */

const glbUrl = stoolGlb().then((bytes) => URL.createObjectURL(new Blob([bytes], { type: 'model/gltf-binary' })));
const vec = (x: number, y: number, z: number) => ({ x, y, z });

/** From far off, high and to the left: nothing like a framed view. */
const FAR_CAMERA: CameraView = { position: vec(-3, 4, 9), target: vec(0.5, 0, 0) };

async function stoolPayload(
  parts: { camera?: CameraView | null; settings?: Record<string, unknown>; scale?: number } = {},
): Promise<PublicProject> {
  const scale = parts.scale ?? 1;
  return {
    id: projectOf('framing'),
    name: 'Stool',
    type: 'configurator',
    data: {
      models: [
        {
          id: 'stool',
          fileName: 'stool.glb',
          url: await glbUrl,
          transform: {},
          position: vec(0, 0, 0),
          rotation: vec(0, 0, 0),
          scale: vec(scale, scale, scale),
          partTransforms: {},
          deletedParts: ['Footrest'],
          pivotData: {},
        },
      ],
      sceneData: {
        optionBlocks: [
          {
            id: 'backrest',
            name: 'Backrest',
            type: 'toggle',
            choices: [
              { id: 'off', label: 'Without', default: true, effects: [visibility(false)] },
              { id: 'on', label: 'With', effects: [visibility(true)] },
            ],
          },
        ],
        projectSettings: parts.settings ? { camera: parts.settings } : {},
        formFields: [],
        animationBlocks: [],
        pricingBlocks: [],
        pricingFormula: [],
      },
      ...(parts.camera === null ? {} : { camera: parts.camera ?? FAR_CAMERA }),
      renderQuality: 'low',
      saveConfigEnabled: false,
    },
  };
}

function visibility(visible: boolean) {
  return { type: 'visibility', nodes: ['Backrest'], visible };
}

/** Resolves at the element's next drawn scene or configuration. */
const nextRendered = (element: ConfigShareElement) =>
  new Promise<void>((resolve) => element.addEventListener('config-share-rendered', () => resolve(), { once: true }));

/** A `<config-share>` (320 px wide: a 320×240 view) showing `payload`, drawn. */
async function show(payload: PublicProject, attributes: Record<string, string> = {}) {
  const element = mount(attributes);
  const rendered = nextRendered(element);
  element.preview = payload;
  await untilState(element, 'ready');
  await rendered;
  return element;
}

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/** The canvas drawn last (a preview's edit stacks the next one on top until it is drawn). */
const canvasOf = (element: ConfigShareElement) =>
  [...element.shadowRoot!.querySelectorAll('canvas')].at(-1) as HTMLCanvasElement;

/** The drawn pixels that are not the white background: their bounding box, and the yellow (backrest) count. */
function drawnExtent(canvas: HTMLCanvasElement) {
  const copy = document.createElement('canvas');
  [copy.width, copy.height] = [canvas.width, canvas.height];
  const context = copy.getContext('2d')!;
  context.drawImage(canvas, 0, 0);
  const { data, width, height } = context.getImageData(0, 0, copy.width, copy.height);
  let [left, top, right, bottom, yellow] = [width, height, -1, -1, 0];
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if (255 * 3 - r - g - b < 36) continue;
    const x = (i / 4) % width;
    const y = Math.floor(i / 4 / width);
    [left, right, top, bottom] = [Math.min(left, x), Math.max(right, x), Math.min(top, y), Math.max(bottom, y)];
    if (r > 60 && g > 50 && b < r / 3 && g > r * 0.6) yellow++;
  }
  return { left, top, right, bottom, width, height, yellow };
}

/** Why the drawing breaks the framing rule, or '' when it keeps it. */
function framingFault(extent: ReturnType<typeof drawnExtent>): string {
  const { left, top, right, bottom, width, height } = extent;
  const margin = 0.05 * Math.min(width, height);
  const faults = [];
  if (right < 0) faults.push('nothing drawn');
  if (left < margin || top < margin || width - 1 - right < margin || height - 1 - bottom < margin)
    faults.push(`within ${margin.toFixed(1)} px of an edge`);
  if ((right - left + 1) / width < 0.6 && (bottom - top + 1) / height < 0.6) faults.push('spans under 60%');
  return faults.length ? `${faults.join(', ')}: ${JSON.stringify(extent)}` : '';
}

async function assertFramed(element: ConfigShareElement, what: string) {
  const fault = framingFault(drawnExtent(canvasOf(element)));
  assert(!fault, `${what}: ${fault}`);
}

/** Waits until the drawing keeps the framing rule (a glide gets there over 400 ms). */
const untilFramed = (element: ConfigShareElement, what: string) =>
  until(() => !framingFault(drawnExtent(canvasOf(element))), `${what} framed`, 30_000).catch(() =>
    assertFramed(element, what),
  );

type Vec = CameraView['position'];
const minus = (a: Vec, b: Vec) => vec(a.x - b.x, a.y - b.y, a.z - b.z);
const length = (a: Vec) => Math.hypot(a.x, a.y, a.z);
const unit = (a: Vec) => {
  const size = length(a);
  return vec(a.x / size, a.y / size, a.z / size);
};
const direction = (view: CameraView) => unit(minus(view.position, view.target));
const near = (a: Vec, b: Vec, tolerance = 1e-4) => length(minus(a, b)) <= tolerance;
const viewText = (view: CameraView | null) => JSON.stringify(view);
/** The same view but for float noise in the last digits (getCameraView rounds to a millionth). */
const sameView = (a: CameraView | null, b: CameraView) =>
  !!a && near(a.position, b.position, 1e-5) && near(a.target, b.target, 1e-5);

/** The view of a fresh element that starts with these selections: where a fit of them lands. */
async function fittedView(payload: PublicProject, configuration: string) {
  const other = await show({ ...payload, id: projectOf('framing') }, { configuration });
  const view = other.getCameraView()!;
  other.remove();
  return view;
}

/** A drag across the middle of the canvas with the real mouse (the visitor turns the view). */
async function drag(element: ConfigShareElement) {
  const box = canvasOf(element).getBoundingClientRect();
  const [x, y] = [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];
  await sendMouse({ type: 'move', position: [x, y] });
  await sendMouse({ type: 'down' });
  await sendMouse({ type: 'move', position: [x + 40, y + 10] });
  await sendMouse({ type: 'move', position: [x + 80, y + 20] });
  await sendMouse({ type: 'up' });
}

const resetButton = (element: ConfigShareElement) => part<HTMLButtonElement>(element, '[part="reset-view"]');

afterEach(async () => {
  cleanUp();
  await emulateMedia({ reducedMotion: 'no-preference' });
});

describe('<config-share> framing', () => {
  it('frames the visible stool at its first frame, from data.camera’s side, at the visible centre', async () => {
    const element = await show(await stoolPayload());
    await assertFramed(element, 'first frame');
    const view = element.getCameraView()!;
    assert(near(direction(view), direction(FAR_CAMERA)), `the side is kept: ${viewText(view)}`);
    // Seat and legs (backrest hidden, footrest deleted): x and z ±0.2, y 0 to 0.45.
    assert(near(view.target, vec(0, 0.225, 0), 1e-3), `the target is the visible centre: ${viewText(view)}`);
    equal(resetButton(element), null, 'no "Reset view" before the visitor moves');
  });

  it('keeps a data.camera that already frames the stool exactly', async () => {
    const payload = await stoolPayload();
    const fitted = (await show(payload)).getCameraView()!;
    cleanUp();
    const element = await show(await stoolPayload({ camera: fitted }));
    equal(element.getCameraView(), fitted, 'the owner’s camera, untouched');
  });

  it('frames without data.camera, and a restored configuration at its first frame', async () => {
    const element = await show(await stoolPayload({ camera: null }), {
      configuration: '{"options":{"backrest":"on"}}',
    });
    await assertFramed(element, 'restored backrest');
    assert(drawnExtent(canvasOf(element)).yellow > 20, 'the backrest is drawn');
  });

  it('refits when an effect shows or hides the backrest, gliding to the fitted view', async () => {
    const payload = await stoolPayload();
    const fitted = await fittedView(payload, '{"options":{"backrest":"on"}}');
    const element = await show(payload);
    const before = element.getCameraView()!;
    // Once shown and hidden first: the backrest's first draw compiles its shader, a frame long enough to end a glide.
    equal(await element.setOption('backrest', 'on'), true, 'backrest on');
    await until(() => sameView(element.getCameraView(), fitted), 'the camera at the fitted spot');
    equal(await element.setOption('backrest', 'off'), true, 'backrest off');
    await until(() => sameView(element.getCameraView(), before), 'the camera back');
    const seen: string[] = [];
    let watching = true;
    const watch = () => {
      seen.push(viewText(element.getCameraView()));
      if (watching) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    equal(await element.setOption('backrest', 'on'), true, 'backrest on');
    await until(() => near(element.getCameraView()!.position, fitted.position), 'the camera at the fitted spot');
    watching = false;
    assert(sameView(element.getCameraView(), fitted), `it ends where a fit of the backrest lands: ${viewText(fitted)}`);
    const between = new Set(seen.filter((view) => view !== viewText(before) && view !== viewText(fitted)));
    assert(between.size >= 2, `it glides through views on the way (${between.size}): ${seen.join(' ')}`);
    await assertFramed(element, 'backrest shown');
    assert(drawnExtent(canvasOf(element)).yellow > 20, 'the backrest is drawn');

    equal(await element.setOption('backrest', 'off'), true, 'backrest off');
    await untilFramed(element, 'backrest hidden again');
  });

  it('moves at once under prefers-reduced-motion: reduce', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    const payload = await stoolPayload();
    const fitted = await fittedView(payload, '{"options":{"backrest":"on"}}');
    const element = await show(payload);
    const rendered = nextRendered(element);
    equal(await element.setOption('backrest', 'on'), true, 'backrest on');
    await rendered;
    assert(
      sameView(element.getCameraView(), fitted),
      `at the fitted spot when the change is drawn: ${viewText(fitted)}`,
    );
    await assertFramed(element, 'backrest shown at once');
  });

  it('refits after a resize', async () => {
    const element = await show(await stoolPayload());
    element.style.width = '200px';
    await until(() => canvasOf(element).width === 200, 'the canvas resized');
    await untilFramed(element, 'the narrower view');
    element.style.width = '420px';
    await until(() => canvasOf(element).width === 420, 'the canvas resized again');
    await untilFramed(element, 'the wider view');
  });

  it('frames a new payload (a preview’s edit scaling the model)', async () => {
    const element = await show(await stoolPayload());
    const rendered = nextRendered(element);
    element.preview = await stoolPayload({ scale: 3 });
    await rendered;
    await until(() => element.shadowRoot!.querySelectorAll('canvas').length === 1, 'the replaced scene gone');
    await assertFramed(element, 'the scaled stool');
  });

  it('uses the owner’s camera as given with camera.fit false', async () => {
    const element = await show(await stoolPayload({ settings: { fit: false } }));
    equal(element.getCameraView(), FAR_CAMERA, 'data.camera as given');
    equal(await element.setOption('backrest', 'on'), true, 'backrest on');
    for (let i = 0; i < 30; i++) await frame();
    equal(element.getCameraView(), FAR_CAMERA, 'no refit after a change');
  });

  it('widens the owner’s distance limits to the fitted distance', async () => {
    // Both limits closer than any view of the whole stool: the fit still shows all of it.
    const element = await show(await stoolPayload({ settings: { minDistance: 0.05, maxDistance: 0.1 } }));
    await assertFramed(element, 'within limits that would cut it off');
    const view = element.getCameraView()!;
    assert(length(minus(view.position, view.target)) > 0.1, `farther than maxDistance: ${viewText(view)}`);
  });

  it('leaves the visitor’s view alone until "Reset view", which fits again', async () => {
    const payload = await stoolPayload();
    const fitted = await fittedView(payload, '{"options":{"backrest":"on"}}');
    const element = await show(payload);
    const start = element.getCameraView();
    await drag(element);
    await until(() => viewText(element.getCameraView()) !== viewText(start), 'the view turned');
    await until(() => resetButton(element), 'the "Reset view" button');
    const moved = element.getCameraView();

    equal(await element.setOption('backrest', 'on'), true, 'backrest on');
    for (let i = 0; i < 30; i++) await frame();
    equal(element.getCameraView(), moved, 'the camera stays where the visitor left it');

    const button = resetButton(element)!;
    equal(button.tagName, 'BUTTON', 'a native button');
    equal(button.textContent, 'Reset view', 'its name');
    canvasOf(element).focus();
    await sendKeys({ press: 'Tab' });
    equal(element.shadowRoot!.activeElement, button, 'Tab from the view reaches it');
    await sendKeys({ press: 'Enter' });
    await until(() => near(element.getCameraView()!.position, fitted.position), 'the camera back at the fitted spot');
    assert(
      sameView(element.getCameraView(), fitted),
      `the fit of the backrest, from the owner’s side: ${viewText(fitted)}`,
    );
    equal(resetButton(element), null, 'the button is gone');
    equal(element.shadowRoot!.activeElement, canvasOf(element), 'focus stays in the view');
    await assertFramed(element, 'after "Reset view"');
  });

  it('sends a framed screenshot', async () => {
    const element = await show(await stoolPayload(), { configuration: '{"options":{"backrest":"on"}}' });
    const png = await element.screenshot();
    assert(png, 'a screenshot');
    const image = new Image();
    image.src = png;
    await image.decode();
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [image.width, image.height];
    canvas.getContext('2d')!.drawImage(image, 0, 0);
    const fault = framingFault(drawnExtent(canvas));
    assert(!fault, `the screenshot: ${fault}`);
  });
});
