import type { ConfigShareElement } from '../../element/config-share.js';
import { RENDERED_EVENT, type Viewer } from '../../element/features/viewer.js';
import { assert, cleanUp, equal, mountShare, until } from './helpers.js';
import { MODEL_FILES, SIGNED_PATHS, assertDeliveryFile, type ModelFile } from './model-files.js';
import { block, mountStool, sceneOf } from './stool-viewer.js';

/**
 * Delivery files (docs/delivery-files.md) in the element: meshopt geometry and WebP textures decoded without a CDN,
 * the decoder fetched only for a file that needs it, and the product drawn as its original draws it.
 */

afterEach(cleanUp);

/**
 * How far (0–255, per channel) a pixel of a delivery file's frame may be from the original's. Its 8-bit normals shade
 * a level apart, WebP moves a texel a level or two; the positions keep the geometry within 1/32767 of a unit, so no
 * pixel changes what it shows, which would be a difference of a hundred or more. Measured: 1 without, 2 with a texture.
 */
const DELIVERY_TOLERANCE = 4;

/**
 * Every resource this page fetched. An observer, not `performance.getEntriesByType`: the dev server serves each module
 * on its own, more than the 250 entries the page's resource timing buffer keeps.
 */
const fetched: string[] = [];
new PerformanceObserver((list) => fetched.push(...list.getEntries().map((entry) => entry.name))).observe({
  type: 'resource',
  buffered: true,
});
/** three's meshopt decoder, from wherever it came (the build names its chunk meshopt_decoder.module-<hash>.js). */
const decoderFetches = () => fetched.filter((name) => name.includes('meshopt_decoder'));

/**
 * A share of the fake BFF (the cube, in `stool` at low render quality) with its models signed as `file`, mounted;
 * resolves once its models are drawn. A page's first scene takes long: its modules come through the dev server.
 */
async function drawnShare(file: ModelFile): Promise<ConfigShareElement> {
  const element = mountShare('stool', file);
  let drawn = false;
  element.addEventListener(RENDERED_EVENT, () => (drawn = true), { once: true });
  await until(() => drawn, `the ${file} file drawn`, 80_000);
  return element;
}

/** How many of the screenshot's pixels are not the white background. */
async function productPixels(element: ConfigShareElement): Promise<number> {
  const image = new Image();
  image.src = (await element.screenshot())!;
  await image.decode();
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [image.width, image.height];
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  let count = 0;
  for (let i = 0; i < data.length; i += 4) if (Math.min(data[i], data[i + 1], data[i + 2]) < 200) count++;
  return count;
}

describe('delivery files in the element', () => {
  // First in this page: nothing before it has fetched the decoder, and the page's first scene takes long to draw.
  it('an original file is drawn without fetching the meshopt decoder', async () => {
    const original = await drawnShare('original');
    assert((await productPixels(original)) > 100, 'the original cube is drawn');
    equal(
      fetched.filter((name) => name.includes('/fake/model')).map((name) => new URL(name).pathname),
      [SIGNED_PATHS.original],
      'the original file read',
    );
    equal(decoderFetches(), [], 'no decoder for an original');
  });

  it('a delivery file fetches the decoder, from this origin, and is drawn', async () => {
    const delivery = await drawnShare('delivery');
    assert(
      fetched.some((name) => name.endsWith(SIGNED_PATHS.delivery)),
      'the delivery file read',
    );
    // The fixture the element-level suites' `delivery` runs read: a ready delivery file, not the original again.
    await assertDeliveryFile(await (await fetch(SIGNED_PATHS.delivery)).arrayBuffer());
    await until(() => decoderFetches().length > 0, 'the decoder fetched');
    const [decoder, ...more] = decoderFetches();
    equal(more, [], 'fetched once');
    equal(new URL(decoder).origin, location.origin, `the element's own copy, no CDN: ${decoder}`);
    const pixels = await productPixels(delivery);
    assert(pixels > 100, `the delivery cube is drawn: ${pixels} pixels`);
  });

  it('draws the delivery file as its original: the same box, every name, variant and clip found', async () => {
    const nodes = ['Stool', 'Seat', 'Leg_1', 'Leg_2', 'Leg_3', 'Leg_4', 'Backrest', 'Footrest'];
    const scene = sceneOf({
      blocks: [
        block('parts', { all: [{ type: 'visibility', nodes, visible: true }] }),
        block('legs', { steel: [{ type: 'variant', name: 'steel' }], brass: [{ type: 'variant', name: 'brass' }] }),
        block('seat', {
          own: [{ type: 'material', material: 'Oak', roughness: 0.9 }],
          painted: [{ type: 'material', nodes: ['Seat'], use: 'Paint' }],
        }),
      ],
      more: {
        animations: [
          {
            id: 'slide',
            name: 'Slide',
            clip: 'Slide',
            trigger: 'button',
            on: null,
            model: null,
            loop: 'once',
            speed: 1,
            reverse: false,
          },
        ],
      },
    });
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    const frames = {} as Record<ModelFile, { steel: Uint8ClampedArray; brass: Uint8ClampedArray }>;
    try {
      for (const file of MODEL_FILES) {
        const { viewer } = await mountStool(scene, { parts: 'all', legs: 'steel', seat: 'own' }, file);
        equal(viewer.availableAnimations(), ['slide'], `${file}: the clip found`);
        const steel = pixelsOf(viewer);
        await viewer.configure({ parts: 'all', legs: 'brass', seat: 'painted' });
        frames[file] = { steel, brass: pixelsOf(viewer) };
      }
    } finally {
      console.warn = warn;
    }
    equal(warnings, [], 'every node, material and variant named is in both files');
    for (const look of ['steel', 'brass'] as const) {
      const [original, delivery] = [frames.original[look], frames.delivery[look]];
      equal(boxOf(delivery), boxOf(original), `${look}: the product in the same box`);
      const off = largestDifference(original, delivery);
      assert(off <= DELIVERY_TOLERANCE, `${look}: every pixel as the original's, within ${DELIVERY_TOLERANCE}: ${off}`);
    }
  });
});

/** The viewer's frame, drawn now. */
function pixelsOf(viewer: Viewer): Uint8ClampedArray {
  const canvas = viewer.capture();
  const copy = document.createElement('canvas');
  [copy.width, copy.height] = [canvas.width, canvas.height];
  const context = copy.getContext('2d')!;
  context.drawImage(canvas, 0, 0);
  return context.getImageData(0, 0, copy.width, copy.height).data;
}

/** The box of the pixels that are not the white background, in the 96 px frame: [left, top, right, bottom]. */
function boxOf(pixels: Uint8ClampedArray): number[] {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < pixels.length; i += 4) {
    if (Math.min(pixels[i], pixels[i + 1], pixels[i + 2]) > 250) continue;
    const [x, y] = [(i / 4) % 96, Math.floor(i / 4 / 96)];
    box.splice(0, 4, Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y));
  }
  return box;
}

/** The largest difference of a colour channel between two frames. */
function largestDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let largest = 0;
  for (let i = 0; i < a.length; i += 4)
    for (const channel of [0, 1, 2]) largest = Math.max(largest, Math.abs(a[i + channel] - b[i + channel]));
  return largest;
}
