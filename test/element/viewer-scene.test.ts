import { Color, type Mesh, type MeshStandardMaterial, type Object3D } from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import type { Viewer } from '../../element/features/viewer.js';
import type { Options, Scene } from '#core/wire/configurator/types.js';
import { assert, equal, until } from './helpers.js';
import { MODEL_FILES } from './model-files.js';
import { STOOL_SETTINGS, block, mountStool, sceneOf, vec } from './stool-viewer.js';

/**
 * The viewer chunk on its own (docs/scene-format.md; the AR export of element/README.md): a tiny stool
 * whose parts each have a colour of their own, drawn on a 96 px canvas and read back, from its
 * original file and from its delivery file (docs/delivery-files.md): both behave the same.
 */

const SETTINGS = STOOL_SETTINGS;

type Hue = 'red' | 'yellow' | 'green' | 'cyan' | 'blue' | 'magenta';
const HUES: Hue[] = ['red', 'yellow', 'green', 'cyan', 'blue', 'magenta'];

/** The drawn frame: its RGBA bytes, and per hue the pixels of that colour and their mean column. */
const look = (viewer: Viewer) => lookAt(viewer.capture());

/** What the canvas holds now, without drawing it again (the drawing buffer is preserved). */
function lookAt(canvas: HTMLCanvasElement) {
  const copy = document.createElement('canvas');
  [copy.width, copy.height] = [canvas.width, canvas.height];
  const context = copy.getContext('2d')!;
  context.drawImage(canvas, 0, 0);
  const { data } = context.getImageData(0, 0, copy.width, copy.height);
  const count = Object.fromEntries(HUES.map((hue) => [hue, 0])) as Record<Hue, number>;
  const columns = Object.fromEntries(HUES.map((hue) => [hue, 0])) as Record<Hue, number>;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    const max = Math.max(r, g, b);
    const spread = max - Math.min(r, g, b);
    // Greys (the white background, shading) have no hue.
    if (max < 30 || spread < 40) continue;
    const degrees =
      max === r
        ? (((g - b) / spread) * 60 + 360) % 360
        : max === g
          ? ((b - r) / spread) * 60 + 120
          : ((r - g) / spread) * 60 + 240;
    const hue = HUES[Math.round(degrees / 60) % 6];
    count[hue]++;
    columns[hue] += (i / 4) % copy.width;
  }
  const column = (hue: Hue) => columns[hue] / count[hue];
  return { pixels: data, count, column, width: copy.width };
}

/** Asserts two frames are the same, byte for byte (the message counts the bytes that differ). */
function sameFrame(a: Uint8ClampedArray, b: Uint8ClampedArray, message: string) {
  const differing = a.length === b.length ? a.filter((value, i) => value !== b[i]).length : -1;
  assert(differing === 0, `${message}: ${differing} bytes differ (sizes ${a.length}, ${b.length})`);
}

for (const file of MODEL_FILES)
  describe(`the viewer, the stool's ${file} file: model fields, effects, animations and the export`, () => {
    const mountViewer = async (scene: Scene, options: Options = {}): Promise<Viewer> =>
      (await mountStool(scene, options, file)).viewer;

    it('draws the stool: seat green, legs blue, backrest yellow, footrest cyan', async () => {
      const viewer = await mountViewer(sceneOf({}));
      const { count } = look(viewer);
      for (const hue of ['green', 'blue', 'yellow', 'cyan'] as const)
        assert(count[hue] > 5, `${hue} pixels: ${count[hue]}`);
      equal([count.red, count.magenta], [0, 0], 'no red or magenta');
    });

    it('a material effect recolours the seat, by nodes or by material name, and undoing it is exact', async () => {
      const seat = block('seat', {
        oak: [],
        paint: [{ type: 'material', nodes: ['Seat'], color: '#ff00ff' }],
        red: [{ type: 'material', material: 'Oak', color: '#ff0000', roughness: 0.5 }],
        brass: [{ type: 'material', nodes: ['Seat'], use: 'Brass' }],
      });
      const viewer = await mountViewer(sceneOf({ blocks: [seat] }), { seat: 'oak' });
      const before = look(viewer);
      await viewer.configure({ seat: 'paint' });
      const painted = look(viewer);
      assert(painted.count.magenta > 5, `the seat is magenta: ${painted.count.magenta}`);
      equal(painted.count.green, 0, 'no green left');
      await viewer.configure({ seat: 'red' });
      const red = look(viewer);
      assert(
        red.count.red > 5 && red.count.magenta === 0 && red.count.green === 0,
        `red by material name: ${JSON.stringify(red.count)}`,
      );
      await viewer.configure({ seat: 'brass' });
      const brass = look(viewer);
      assert(brass.count.red > 5 && brass.count.green === 0, `another material in use: ${JSON.stringify(brass.count)}`);
      await viewer.configure({ seat: 'oak' });
      sameFrame(look(viewer).pixels, before.pixels, 'back to the very same frame');
    });

    it('draws opacity on the first and every later change, by material name or nodes, and back to opaque', async () => {
      for (const reach of [{ material: 'Oak' }, { nodes: ['Seat'] }]) {
        const glass = block('glass', {
          solid: [],
          clear: [{ type: 'material', ...reach, opacity: 0.2 }],
          half: [{ type: 'material', ...reach, opacity: 0.6 }],
        });
        const viewer = await mountViewer(sceneOf({ blocks: [glass] }), { glass: 'solid' });
        const solid = look(viewer);
        // The seat's pixels in the solid frame, and how saturated they are: over the white background a
        // translucent seat pales towards white.
        const seat: number[] = [];
        for (let i = 0; i < solid.pixels.length; i += 4) {
          const [r, g, b] = [solid.pixels[i], solid.pixels[i + 1], solid.pixels[i + 2]];
          if (g - Math.max(r, b) > 60) seat.push(i);
        }
        assert(seat.length > 20, `the seat is drawn green: ${seat.length} pixels`);
        const saturation = (pixels: Uint8ClampedArray) =>
          seat.reduce((sum, i) => sum + pixels[i + 1] - Math.max(pixels[i], pixels[i + 2]), 0) / seat.length;
        const opaque = saturation(solid.pixels);
        const ratio = async (choice: string) => {
          await viewer.configure({ glass: choice });
          return saturation(look(viewer).pixels) / opaque;
        };
        const where = JSON.stringify(reach);
        const first = await ratio('clear');
        assert(first < 0.45, `${where}: opacity 0.2 pales the seat on the first change (${first.toFixed(2)})`);
        await viewer.configure({ glass: 'solid' });
        sameFrame(look(viewer).pixels, solid.pixels, `${where}: opaque again`);
        const later = await ratio('clear');
        assert(Math.abs(later - first) < 0.02, `${where}: the same on a later change (${later} vs ${first})`);
        const half = await ratio('half');
        assert(half > later + 0.2 && half < 0.9, `${where}: opacity 0.6 lies between (${half.toFixed(2)})`);
        viewer.dispose();
      }
    });

    it('draws roughness and metalness on the first and every later change, and undoes them exactly', async () => {
      const finish = block('finish', {
        plain: [],
        polished: [{ type: 'material', material: 'Oak', roughness: 0.05, metalness: 1 }],
      });
      const viewer = await mountViewer(sceneOf({ blocks: [finish] }), { finish: 'plain' });
      const plain = look(viewer).pixels;
      await viewer.configure({ finish: 'polished' });
      const polished = look(viewer).pixels;
      const changed = polished.filter((value, i) => value !== plain[i]).length;
      assert(changed > 40, `a metal seat looks different on the first change: ${changed} bytes`);
      await viewer.configure({ finish: 'plain' });
      sameFrame(look(viewer).pixels, plain, 'undone exactly');
      await viewer.configure({ finish: 'polished' });
      sameFrame(look(viewer).pixels, polished, 'the same on a later change');
    });

    it('applies the options given at creation before the first frame', async () => {
      const seat = block('seat', { oak: [], paint: [{ type: 'material', nodes: ['Seat'], color: '#ff00ff' }] });
      const viewer = await mountViewer(sceneOf({ blocks: [seat] }), { seat: 'paint' });
      const { count } = look(viewer);
      assert(count.magenta > 5 && count.green === 0, `configured at once: ${JSON.stringify(count)}`);
    });

    it('leaves deleted parts out for good, and warns once for a name the file lacks', async () => {
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
      try {
        const show = block('show', { all: [{ type: 'visibility', nodes: ['Footrest', 'Nowhere'], visible: true }] });
        const scene = sceneOf({ blocks: [show], model: { deletedParts: ['Footrest', 'Nowhere'] } });
        const viewer = await mountViewer(scene, { show: 'all' });
        equal(look(viewer).count.cyan, 0, 'no footrest, even when an effect shows it');
        await viewer.configure({ show: 'all' });
        equal(look(viewer).count.cyan, 0, 'still none');
        equal(warnings.filter((text) => text.includes('"Nowhere"')).length, 1, 'one warning for the unknown name');
      } finally {
        console.warn = warn;
      }
    });

    it('hides and shows a part with a visibility effect', async () => {
      const backrest = block('backrest', {
        off: [{ type: 'visibility', nodes: ['Backrest'], visible: false }],
        on: [{ type: 'visibility', nodes: ['Backrest'], visible: true }],
      });
      const viewer = await mountViewer(sceneOf({ blocks: [backrest] }), { backrest: 'off' });
      equal(look(viewer).count.yellow, 0, 'hidden from the first frame');
      await viewer.configure({ backrest: 'on' });
      assert(look(viewer).count.yellow > 5, 'shown');
      await viewer.configure({ backrest: 'off' });
      equal(look(viewer).count.yellow, 0, 'hidden again');
    });

    it('switches the legs with a KHR_materials_variants variant, an unknown name showing the defaults', async () => {
      const legs = block('legs', {
        steel: [{ type: 'variant', name: 'steel' }],
        brass: [{ type: 'variant', name: 'brass' }],
        gold: [{ type: 'variant', name: 'gold' }],
        brassRecoloured: [
          { type: 'variant', name: 'brass' },
          { type: 'material', material: 'Brass', color: '#00ff00' },
        ],
      });
      const viewer = await mountViewer(sceneOf({ blocks: [legs] }), { legs: 'steel' });
      const steel = look(viewer);
      await viewer.configure({ legs: 'brass' });
      const brass = look(viewer);
      assert(brass.count.red > 5 && brass.count.blue === 0, `brass legs: ${JSON.stringify(brass.count)}`);
      await viewer.configure({ legs: 'gold' });
      sameFrame(look(viewer).pixels, steel.pixels, 'an unknown variant shows the default materials');
      await viewer.configure({ legs: 'brassRecoloured' });
      const recoloured = look(viewer);
      assert(
        recoloured.count.red === 0 && recoloured.count.green > brass.count.green,
        'a material after a variant wins',
      );
    });

    it('draws a change within the task that made it, with no animation frame needed', async () => {
      const legs = block('legs', {
        steel: [{ type: 'variant', name: 'steel' }],
        brass: [{ type: 'variant', name: 'brass' }],
      });
      const { viewer, stage } = await mountStool(sceneOf({ blocks: [legs] }), { legs: 'steel' }, file);
      const canvas = stage.querySelector('canvas')!;
      // Past the first frame, whose resize observation draws again.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      equal(lookAt(canvas).count.red, 0, 'steel legs drawn');
      // No animation frame comes: a change drawn only at the next frame would never reach the canvas.
      const requestFrame = window.requestAnimationFrame;
      window.requestAnimationFrame = () => 0;
      try {
        void viewer.configure({ legs: 'brass' });
        // A task later, the canvas already holds the change.
        await new Promise((resolve) => setTimeout(resolve, 0));
        assert(lookAt(canvas).count.red > 5, `brass legs on the canvas: ${JSON.stringify(lookAt(canvas).count)}`);
      } finally {
        window.requestAnimationFrame = requestFrame;
      }
    });

    it('moves a part with a transform effect, on top of partTransforms', async () => {
      const move = block('move', {
        stay: [],
        right: [{ type: 'transform', nodes: ['Backrest'], position: { x: 0.3 } }],
      });
      const viewer = await mountViewer(sceneOf({ blocks: [move] }), { move: 'stay' });
      const home = look(viewer).column('yellow');
      await viewer.configure({ move: 'right' });
      const moved = look(viewer).column('yellow');
      assert(moved > home + 8, `moved right: ${home} → ${moved}`);

      const shifted = await mountViewer(
        sceneOf({ blocks: [move], model: { partTransforms: { Backrest: { position: { x: -0.3 } } } } }),
        { move: 'stay' },
      );
      const left = look(shifted).column('yellow');
      assert(left < home - 8, `partTransforms moved it left: ${home} → ${left}`);
      await shifted.configure({ move: 'right' });
      const back = look(shifted).column('yellow');
      assert(Math.abs(back - moved) < 1.5, `the effect replaces x only: ${back} vs ${moved} (${look(shifted).width})`);
    });

    it('turns a part about its pivot', async () => {
      const turned = { Backrest: { rotation: { z: Math.PI / 2 } } };
      const about = await mountViewer(sceneOf({ model: { partTransforms: turned } }));
      const centre = look(about).column('yellow');
      const pivoted = await mountViewer(
        sceneOf({ model: { partTransforms: turned, partPivots: { Backrest: vec(0.15, 0, 0) } } }),
      );
      // T(pivot)·R·T(−pivot) with a quarter turn moves the centre by (+0.15, −0.15).
      const side = look(pivoted).column('yellow');
      assert(side > centre + 5, `turned about its right edge: ${centre} → ${side}`);
    });

    it('plays an animation: the end pose differs from the start, and the clip runs forward', async () => {
      const scene = sceneOf({
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
            {
              id: 'ghost',
              name: 'Ghost',
              clip: 'Nowhere',
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
      const viewer = await mountViewer(scene);
      equal(viewer.availableAnimations(), ['slide'], 'only the clip the file has');
      equal(viewer.playAnimation('ghost', 'play'), false, 'a missing clip');
      equal(viewer.playAnimation('nope', 'play'), false, 'an unknown block');
      const start = look(viewer).column('yellow');
      assert(viewer.playAnimation('slide', 'end'), 'jumps to the end');
      await until(() => look(viewer).column('yellow') > start + 8, 'the end pose');
      assert(viewer.playAnimation('slide', 'backward'), 'back');
      await until(() => Math.abs(look(viewer).column('yellow') - start) < 1, 'back at the start pose');
      assert(viewer.playAnimation('slide', 'forward'), 'forward');
      await until(() => look(viewer).column('yellow') > start + 8, 'played forward to the end');
    });

    it('exports the configured scene: no hidden or deleted parts, current materials, no variants', async () => {
      const scene = sceneOf({
        model: { deletedParts: ['Footrest'] },
        blocks: [
          block('seat', { paint: [{ type: 'material', nodes: ['Seat'], color: '#ff00ff' }] }),
          block('legs', { brass: [{ type: 'variant', name: 'brass' }] }),
          block('backrest', { off: [{ type: 'visibility', nodes: ['Backrest'], visible: false }] }),
        ],
      });
      const viewer = await mountViewer(scene, { seat: 'paint', legs: 'brass', backrest: 'off' });
      const blob = await viewer.exportConfigured();
      const bytes = await blob.arrayBuffer();
      assert(!new TextDecoder().decode(bytes).includes('KHR_materials_variants'), 'no variants in the export');
      const gltf = await new GLTFLoader().parseAsync(bytes, '');
      const names: string[] = [];
      const materials = new Map<string, MeshStandardMaterial>();
      gltf.scene.traverse((object: Object3D) => {
        names.push(object.userData.name ?? object.name);
        const mesh = object as Mesh;
        if (mesh.isMesh) materials.set(object.userData.name ?? object.name, mesh.material as MeshStandardMaterial);
      });
      assert(!names.includes('Backrest') && !names.includes('Footrest'), `no hidden or deleted parts: ${names}`);
      assert(names.includes('Seat') && names.includes('Leg_4'), `the shown parts: ${names}`);
      const close = (a: Color, b: Color) =>
        Math.max(...a.toArray().map((value, i) => Math.abs(value - b.toArray()[i]))) < 0.01;
      assert(close(materials.get('Seat')!.color, new Color('#ff00ff')), 'the seat keeps its colour');
      assert(close(materials.get('Leg_1')!.color, new Color(0.6, 0.02, 0.02)), 'the legs are brass');
    });

    it('holds a change until its texture has loaded, then shows it whole', async () => {
      const swatch = document.createElement('canvas');
      swatch.width = swatch.height = 4;
      const paint = swatch.getContext('2d')!;
      paint.fillStyle = '#ff00ff';
      paint.fillRect(0, 0, 4, 4);
      const seat = block('seat', {
        oak: [],
        fabric: [{ type: 'material', nodes: ['Seat'], color: '#ffffff', map: swatch.toDataURL('image/png') }],
      });
      const viewer = await mountViewer(sceneOf({ blocks: [seat] }), { seat: 'oak' });
      await viewer.configure({ seat: 'fabric' });
      const { count } = look(viewer);
      assert(count.magenta > 5 && count.green === 0, `the textured seat at once: ${JSON.stringify(count)}`);
    });

    it('honours lighting: no environment and no key light leave the stool unlit', async () => {
      const scene = sceneOf({});
      scene.settings = { ...SETTINGS, lighting: { ...SETTINGS.lighting, environment: 'none', keyLight: 0 } };
      const { count, pixels } = look(await mountViewer(scene));
      equal(
        HUES.map((hue) => count[hue]),
        [0, 0, 0, 0, 0, 0],
        'no colour without light',
      );
      assert(
        pixels.some((value, i) => i % 4 === 0 && value < 30),
        'the stool is drawn dark',
      );
    });

    it('turns the view by itself with display.autoRotate', async () => {
      const scene = sceneOf({});
      scene.settings = { ...SETTINGS, display: { ...SETTINGS.display, autoRotate: true } };
      const viewer = await mountViewer(scene);
      const first = look(viewer).pixels;
      await until(() => look(viewer).pixels.some((value, i) => value !== first[i]), 'a turned view');
    });

    it('honours display.background: transparent leaves the canvas clear around the model', async () => {
      const scene = sceneOf({});
      scene.settings = { ...SETTINGS, display: { ...SETTINGS.display, background: 'transparent' } };
      const viewer = await mountViewer(scene);
      const { pixels } = look(viewer);
      equal(pixels[3], 0, 'a transparent corner');
    });
  });
