import type { Viewer } from '../../element/features/viewer.js';
import type { OptionBlock, Options, Scene, SceneSettings } from '#core/wire/configurator/types.js';
import { assert, equal } from './helpers.js';
import { MODEL_FILES, type ModelFile } from './model-files.js';
import { STOOL_SETTINGS, block, mountStool, sceneOf as stoolSceneOf, type EffectSpec } from './stool-viewer.js';

/**
 * Every effect property of docs/scene-format.md drawn exactly: the canvas is read as the change left it (no
 * extra draw), on the first change, back, and on a later change (A → B → A → B), for a material reached by
 * name and by nodes. The stool: Seat green (Oak), legs blue (Steel, one mesh shared by four nodes), Backrest
 * yellow, Footrest cyan; the camera is the owner's, never refitted, so only the effect changes the pixels. Each
 * case runs on the stool's original file and on its delivery file (docs/delivery-files.md).
 */

const SETTINGS: SceneSettings = { ...STOOL_SETTINGS, camera: { ...STOOL_SETTINGS.camera, fit: false } };
const sceneOf = (blocks: OptionBlock[], settings = SETTINGS): Scene => stoolSceneOf({ blocks, settings });

interface Mounted {
  viewer: Viewer;
  /** Selects these options (over those given at mount) and resolves with the canvas's pixels once drawn. */
  select(options: Options): Promise<Uint8ClampedArray>;
  /** The canvas's pixels as they are, without drawing again (the drawing buffer is preserved). */
  pixels(): Uint8ClampedArray;
}

/** The stool's `file` in a viewer, configured with `options`. */
async function mountFile(file: ModelFile, scene: Scene, options: Options): Promise<Mounted> {
  const { viewer, stage } = await mountStool(scene, options, file);
  const canvas = stage.querySelector('canvas')!;
  const pixels = () => {
    const copy = document.createElement('canvas');
    [copy.width, copy.height] = [canvas.width, canvas.height];
    const context = copy.getContext('2d')!;
    context.drawImage(canvas, 0, 0);
    return context.getImageData(0, 0, copy.width, copy.height).data;
  };
  return {
    viewer,
    pixels,
    async select(next) {
      await viewer.configure({ ...options, ...next });
      return pixels();
    },
  };
}

/** How many bytes differ between two frames. */
const differing = (a: Uint8ClampedArray, b: Uint8ClampedArray) => a.filter((value, i) => value !== b[i]).length;

function sameFrame(a: Uint8ClampedArray, b: Uint8ClampedArray, message: string) {
  const count = differing(a, b);
  assert(count === 0, `${message}: ${count} bytes differ`);
}

/** The pixel offsets (into RGBA bytes) where `test` holds for the pixel's r, g, b. */
function where(pixels: Uint8ClampedArray, test: (r: number, g: number, b: number) => boolean): number[] {
  const found: number[] = [];
  for (let i = 0; i < pixels.length; i += 4) if (test(pixels[i], pixels[i + 1], pixels[i + 2])) found.push(i);
  return found;
}

const isGreen = (r: number, g: number, b: number) => g - Math.max(r, b) > 60;
const isBlue = (r: number, g: number, b: number) => b - Math.max(r, g) > 60;
const isMagenta = (r: number, g: number, b: number) => Math.min(r, b) - g > 60;
const isRed = (r: number, g: number, b: number) => r - Math.max(g, b) > 60;

/**
 * A → B → A → B: B differs from A in the way `shows` checks, A comes back exactly, and B the second time is the
 * very frame of the first. Returns B's pixels.
 */
async function roundTrip(
  view: Mounted,
  blockId: string,
  [a, b]: [string, string],
  shows: (before: Uint8ClampedArray, after: Uint8ClampedArray) => void,
  label: string,
): Promise<Uint8ClampedArray> {
  const first = await view.select({ [blockId]: a });
  const changed = await view.select({ [blockId]: b });
  shows(first, changed);
  sameFrame(await view.select({ [blockId]: a }), first, `${label}: back to ${a} exactly`);
  sameFrame(await view.select({ [blockId]: b }), changed, `${label}: ${b} again, the same frame`);
  return changed;
}

/** A solid-colour image as a data URL: every texel reads the same colour, wherever the stool's UVs point. */
function swatch(colour: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 4;
  const context = canvas.getContext('2d')!;
  context.fillStyle = colour;
  context.fillRect(0, 0, 4, 4);
  return canvas.toDataURL('image/png');
}

const REACHES: Array<{ material: string } | { nodes: string[] }> = [{ material: 'Oak' }, { nodes: ['Seat'] }];
const label = (reach: object) => JSON.stringify(reach);

for (const file of MODEL_FILES)
  describe(`effects drawn exactly on the stool's ${file} file: every property, first and later changes`, () => {
    const mountViewer = (scene: Scene, options: Options) => mountFile(file, scene, options);

    it('color, by material name and by nodes', async () => {
      for (const reach of REACHES) {
        const view = await mountViewer(
          sceneOf([block('seat', { oak: [], paint: [{ type: 'material', ...reach, color: '#ff00ff' }] })]),
          { seat: 'oak' },
        );
        await roundTrip(
          view,
          'seat',
          ['oak', 'paint'],
          (before, after) => {
            assert(where(before, isGreen).length > 20, `${label(reach)}: a green seat first`);
            equal(where(after, isGreen).length, 0, `${label(reach)}: no green left`);
            assert(where(after, isMagenta).length > 20, `${label(reach)}: a magenta seat`);
          },
          label(reach),
        );
      }
    });

    it('color is sRGB: the file’s own linear colour, written as sRGB, draws the same pixels', async () => {
      // Oak's glTF base colour is linear (0.02, 0.5, 0.02), which is #27bc27 in sRGB.
      const view = await mountViewer(
        sceneOf([
          block('seat', {
            oak: [],
            same: [{ type: 'material', material: 'Oak', color: '#27bc27' }],
            texture: [{ type: 'material', nodes: ['Seat'], color: '#ffffff', map: swatch('#27bc27') }],
          }),
        ]),
        { seat: 'oak' },
      );
      const oak = view.pixels();
      const seat = where(oak, isGreen);
      const largest = (pixels: Uint8ClampedArray) =>
        Math.max(...seat.flatMap((i) => [0, 1, 2].map((c) => Math.abs(pixels[i + c] - oak[i + c]))));
      const colour = largest(await view.select({ seat: 'same' }));
      assert(colour <= 2, `the colour effect matches the file's colour: off by ${colour}`);
      const texture = largest(await view.select({ seat: 'texture' }));
      assert(texture <= 4, `an sRGB texture matches it too: off by ${texture}`);
    });

    it('roughness and metalness, by material name and by nodes', async () => {
      for (const reach of REACHES) {
        const view = await mountViewer(
          sceneOf([
            block('finish', {
              plain: [],
              smooth: [{ type: 'material', ...reach, roughness: 0.05 }],
              metal: [{ type: 'material', ...reach, metalness: 1 }],
            }),
          ]),
          { finish: 'plain' },
        );
        for (const choice of ['smooth', 'metal']) {
          await roundTrip(
            view,
            'finish',
            ['plain', choice],
            (before, after) => {
              const count = differing(before, after);
              assert(count > 40, `${label(reach)} ${choice}: the seat looks different (${count} bytes)`);
            },
            `${label(reach)} ${choice}`,
          );
        }
      }
    });

    it('opacity, by material name and by nodes: the exact blend over the background, and opaque again', async () => {
      // A white seat alone over black: what shows through it is the background only.
      const black = { ...SETTINGS, display: { ...SETTINGS.display, background: '#000000' } };
      const others: EffectSpec = {
        type: 'visibility',
        nodes: ['Leg_1', 'Leg_2', 'Leg_3', 'Leg_4', 'Backrest', 'Footrest'],
      };
      for (const reach of REACHES) {
        const white: EffectSpec = { type: 'material', ...reach, color: '#ffffff' };
        const view = await mountViewer(
          sceneOf(
            [
              block('alone', { yes: [{ ...others, visible: false } as EffectSpec] }),
              block('glass', {
                solid: [white],
                clear: [white, { type: 'material', ...reach, opacity: 0.2 }],
                half: [white, { type: 'material', ...reach, opacity: 0.6 }],
              }),
            ],
            black,
          ),
          { alone: 'yes', glass: 'solid' },
        );
        const solid = view.pixels();
        const seat = where(solid, (r, g, b) => Math.min(r, g, b) > 150);
        assert(seat.length > 20, `${label(reach)}: a white seat (${seat.length} pixels)`);
        const blendOff = (pixels: Uint8ClampedArray, opacity: number) =>
          Math.max(...seat.flatMap((i) => [0, 1, 2].map((c) => Math.abs(pixels[i + c] - opacity * solid[i + c]))));
        for (const [choice, opacity] of [
          ['clear', 0.2],
          ['half', 0.6],
        ] as const) {
          await roundTrip(
            view,
            'glass',
            ['solid', choice],
            (_, after) => {
              const off = blendOff(after, opacity);
              assert(off <= 3, `${label(reach)}: opacity ${opacity} of the seat over black (off by ${off})`);
            },
            `${label(reach)} ${choice}`,
          );
        }
        // From one translucency to another and back to solid.
        assert(blendOff(await view.select({ glass: 'clear' }), 0.2) <= 3, 'clear after half');
        sameFrame(await view.select({ glass: 'solid' }), solid, `${label(reach)}: solid again`);
      }
    });

    it('map, by material name and by nodes: appearing, changing to another texture and going', async () => {
      for (const reach of REACHES) {
        const view = await mountViewer(
          sceneOf([
            block('seat', {
              oak: [],
              magenta: [{ type: 'material', ...reach, color: '#ffffff', map: swatch('#ff00ff') }],
              red: [{ type: 'material', ...reach, color: '#ffffff', map: swatch('#ff0000') }],
            }),
          ]),
          { seat: 'oak' },
        );
        const magenta = await roundTrip(
          view,
          'seat',
          ['oak', 'magenta'],
          (_, after) => {
            assert(where(after, isMagenta).length > 20, `${label(reach)}: a magenta texture`);
            equal(where(after, isGreen).length, 0, `${label(reach)}: no green left`);
          },
          label(reach),
        );
        const red = await view.select({ seat: 'red' });
        assert(where(red, isRed).length > 20 && where(red, isMagenta).length === 0, `${label(reach)}: another texture`);
        sameFrame(await view.select({ seat: 'magenta' }), magenta, `${label(reach)}: the first texture again`);
      }
    });

    it('use, by material name and by nodes', async () => {
      for (const reach of REACHES) {
        const view = await mountViewer(
          sceneOf([block('seat', { oak: [], brass: [{ type: 'material', ...reach, use: 'Brass' }] })]),
          { seat: 'oak' },
        );
        await roundTrip(
          view,
          'seat',
          ['oak', 'brass'],
          (_, after) => {
            assert(where(after, isRed).length > 20, `${label(reach)}: a brass (red) seat`);
            equal(where(after, isGreen).length, 0, `${label(reach)}: no green left`);
          },
          label(reach),
        );
      }
    });

    it('an effect on nodes leaves the other nodes that share the mesh and material as they were', async () => {
      const view = await mountViewer(
        sceneOf([
          block('leg', {
            steel: [],
            paint: [{ type: 'material', nodes: ['Leg_1'], color: '#ff00ff', roughness: 0.3 }],
            glass: [{ type: 'material', nodes: ['Leg_1'], opacity: 0.2 }],
            map: [{ type: 'material', nodes: ['Leg_1'], color: '#ffffff', map: swatch('#ff00ff') }],
          }),
        ]),
        { leg: 'steel' },
      );
      const steel = view.pixels();
      const legs = where(steel, isBlue).length;
      for (const choice of ['paint', 'glass', 'map']) {
        await roundTrip(
          view,
          'leg',
          ['steel', choice],
          (_, after) => {
            const left = where(after, isBlue).length;
            // One leg of four changed; the three others (most of the blue) stay exactly blue.
            assert(left < legs && left > legs / 2, `${choice}: only Leg_1 changed (${legs} → ${left} blue pixels)`);
          },
          choice,
        );
      }
    });

    it('use with properties on a material name tints what it showed, not the used one elsewhere', async () => {
      const view = await mountViewer(
        sceneOf([
          block('legs', { brass: [{ type: 'variant', name: 'brass' }] }),
          block('seat', {
            oak: [],
            tinted: [{ type: 'material', material: 'Oak', use: 'Brass', color: '#ff00ff' }],
          }),
        ]),
        { legs: 'brass', seat: 'oak' },
      );
      await roundTrip(
        view,
        'seat',
        ['oak', 'tinted'],
        (before, after) => {
          assert(where(after, isMagenta).length > 20, 'a magenta seat');
          equal(where(after, isRed).length, where(before, isRed).length, 'the brass legs stay red');
        },
        'use + color',
      );
    });

    it('visibility of nodes and of the whole model', async () => {
      const view = await mountViewer(
        sceneOf([
          block('show', {
            all: [],
            noSeat: [{ type: 'visibility', nodes: ['Seat'], visible: false }],
            none: [{ type: 'visibility', visible: false }],
            back: [
              { type: 'visibility', visible: false },
              { type: 'visibility', nodes: ['Seat'], visible: true },
            ],
          }),
        ]),
        { show: 'all' },
      );
      await roundTrip(
        view,
        'show',
        ['all', 'noSeat'],
        (before, after) => {
          equal(where(after, isGreen).length, 0, 'no seat');
          equal(where(after, isBlue).length >= where(before, isBlue).length, true, 'the legs stay');
        },
        'nodes',
      );
      await roundTrip(
        view,
        'show',
        ['all', 'none'],
        (_, after) => equal(where(after, (r, g, b) => Math.min(r, g, b) < 250).length, 0, 'a blank canvas'),
        'model',
      );
      const back = await view.select({ show: 'back' });
      assert(where(back, isGreen).length > 20, 'a later visible: true shows the seat');
      equal(where(back, isBlue).length, 0, 'and only the seat');
    });

    it('variant', async () => {
      const view = await mountViewer(
        sceneOf([
          block('legs', { steel: [{ type: 'variant', name: 'steel' }], brass: [{ type: 'variant', name: 'brass' }] }),
        ]),
        { legs: 'steel' },
      );
      await roundTrip(
        view,
        'legs',
        ['steel', 'brass'],
        (_, after) => {
          assert(where(after, isRed).length > 20, 'brass legs');
          equal(where(after, isBlue).length, 0, 'no steel left');
        },
        'variant',
      );
    });

    it('transform: position, rotation and scale', async () => {
      const view = await mountViewer(
        sceneOf([
          block('seat', {
            home: [],
            position: [{ type: 'transform', nodes: ['Seat'], position: { y: 0.55 } }],
            rotation: [{ type: 'transform', nodes: ['Seat'], rotation: { z: Math.PI / 2 } }],
            scale: [{ type: 'transform', nodes: ['Seat'], scale: { x: 0.5, z: 0.5 } }],
          }),
        ]),
        { seat: 'home' },
      );
      const green = (pixels: Uint8ClampedArray) => where(pixels, isGreen).map((i) => i / 4);
      const rowOf = (pixels: Uint8ClampedArray) => {
        const seat = green(pixels);
        return seat.reduce((sum, index) => sum + Math.floor(index / 96), 0) / seat.length;
      };
      await roundTrip(
        view,
        'seat',
        ['home', 'position'],
        (before, after) => assert(rowOf(after) < rowOf(before) - 3, `raised: ${rowOf(before)} → ${rowOf(after)}`),
        'position',
      );
      for (const choice of ['rotation', 'scale']) {
        await roundTrip(
          view,
          'seat',
          ['home', choice],
          (before, after) => {
            const [was, is] = [green(before).length, green(after).length];
            assert(is < was * 0.7, `${choice}: the seat covers less (${was} → ${is} pixels)`);
          },
          choice,
        );
      }
    });
  });
