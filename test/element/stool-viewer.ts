import { createViewer, type Viewer } from '../../element/features/viewer.js';
import type { Effect, OptionBlock, Options, Scene, SceneModel, SceneSettings } from '#core/wire/configurator/types.js';
import type { PublicProject } from '#core/wire/public-project.js';
import { DEFAULT_SETTINGS } from '#core/wire/configurator/default-settings.js';
import { equal } from './helpers.js';
import { assertDeliveryFile, deliveryFileOf, type ModelFile } from './model-files.js';
import { stoolGlb } from './stool-glb.js';

/**
 * The viewer chunk on its own over the test stool (stool-glb.ts: each part a colour of its own) on a 96 px
 * canvas, from its original file or its delivery file: what the viewer and effect pixel tests share.
 */

const original = stoolGlb();
let delivery: Promise<ArrayBuffer> | undefined;

/** The stool's bytes as that file, a copy of their own (parsing may transfer them). */
export async function stoolFile(file: ModelFile): Promise<ArrayBuffer> {
  if (file === 'original') return (await original).slice(0);
  // Made once a page; a fixture the server would not optimise fails here, with its reason.
  delivery ??= original.then(async (glb) => {
    const made = await deliveryFileOf(glb);
    await assertDeliveryFile(made, { webp: true });
    return made;
  });
  return (await delivery).slice(0);
}
export const vec = (x: number, y: number, z: number) => ({ x, y, z });

/** The defaults, without shadows: pixels read back are the parts' own colours. */
export const STOOL_SETTINGS: SceneSettings = {
  ...DEFAULT_SETTINGS,
  lighting: { ...DEFAULT_SETTINGS.lighting, shadows: false },
};

export type EffectSpec = Partial<Effect> & { type: Effect['type'] };

/** A block whose choices carry these effects (model null: every model). */
export function block(id: string, choices: Record<string, EffectSpec[]>): OptionBlock {
  return {
    id,
    name: id,
    type: 'choice',
    targetObjectId: null,
    defaultChoiceId: null,
    rules: [],
    choices: Object.entries(choices).map(([choiceId, effects]) => ({
      id: choiceId,
      label: choiceId,
      price: null,
      effects: effects.map((effect) => ({ model: null, ...effect }) as Effect),
    })),
  };
}

export function sceneOf(parts: {
  blocks?: OptionBlock[];
  model?: Partial<SceneModel>;
  more?: Partial<Scene>;
  settings?: SceneSettings;
}): Scene {
  return {
    models: [{ id: 'stool', partTransforms: {}, deletedParts: [], pivot: null, partPivots: {}, ...parts.model }],
    optionBlocks: parts.blocks ?? [],
    pricingBlocks: [],
    formula: [],
    numberFields: [],
    animations: [],
    settings: parts.settings ?? STOOL_SETTINGS,
    saveConfigEnabled: false,
    hasPricing: false,
    ...parts.more,
  };
}

const STOOL_MODEL = {
  id: 'stool',
  fileName: 'stool.glb',
  transform: {},
  position: vec(0, 0, 0),
  rotation: vec(0, 0, 0),
  scale: vec(1, 1, 1),
  partTransforms: {},
  deletedParts: [],
  pivotData: {},
};

const STOOL_DATA: PublicProject['data'] = {
  models: [STOOL_MODEL],
  sceneData: {
    optionBlocks: [],
    projectSettings: {},
    formFields: [],
    animationBlocks: [],
    pricingBlocks: [],
    pricingFormula: [],
  },
  // From the front and a little above: seat, backrest behind it, legs and footrest below.
  camera: { position: vec(0, 1, 1.4), target: vec(0, 0.4, 0) },
  renderQuality: 'low',
  saveConfigEnabled: false,
};

const mounted: Array<{ viewer: Viewer; stage: HTMLElement }> = [];
afterEach(() => {
  for (const { viewer, stage } of mounted.splice(0)) {
    viewer.dispose();
    stage.remove();
  }
});

/** The stool (that file of it) in a viewer on a 96 px stage, removed after the test; its stage holds the canvas. */
export async function mountStool(
  scene: Scene,
  options: Options = {},
  file: ModelFile = 'original',
): Promise<{ viewer: Viewer; stage: HTMLElement }> {
  const bytes = await stoolFile(file);
  const stage = document.createElement('div');
  stage.style.cssText = 'width:96px;height:96px';
  document.body.append(stage);
  const viewer = createViewer(stage, STOOL_DATA, 'Stool', { scene, options });
  mounted.push({ viewer, stage });
  const url = file === 'original' ? '/fake/stool.glb' : '/fake/stool.delivery.glb';
  const failed = await viewer.load([{ ...STOOL_MODEL, url, file: Promise.resolve(bytes) }]);
  equal(failed, [], `the stool's ${file} file loads`);
  return { viewer, stage };
}
