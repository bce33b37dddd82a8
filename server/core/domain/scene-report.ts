import {
  computePrice,
  parseScene,
  resolveOptions,
  type Options,
  type Price,
  type Scene,
  type SceneWarning,
} from '../wire/configurator/index.js';
import { readFormFields } from '../wire/form-fields.js';
import type { ProjectData } from './scene.js';
import { withNameWarnings, type OutlineNames } from './scene-names.js';

/**
 * What the configurator makes of a stored scene (docs/scene-format.md): the shared parser over the stored data,
 * without the model files, so owners see what visitors will get.
 */
export interface SceneReport {
  revision: number;
  counts: {
    models: number;
    optionBlocks: number;
    choices: number;
    effects: number;
    rules: number;
    animationBlocks: number;
    pricingBlocks: number;
    formulaSteps: number;
    formFields: number;
  };
  warnings: SceneWarning[];
  /** The selections before any visitor choice: defaults with the option rules applied. */
  defaultOptions: Options;
  /** The price of the default selections with the form's number fields at their defaults; null without pricing. */
  defaultPrice: Price | null;
}

const sum = <T>(items: readonly T[], count: (item: T) => number) => items.reduce((n, item) => n + count(item), 0);

function countsOf(scene: Scene, data: ProjectData): SceneReport['counts'] {
  const choices = scene.optionBlocks.flatMap((block) => block.choices);
  return {
    models: scene.models.length,
    optionBlocks: scene.optionBlocks.length,
    choices: choices.length,
    effects: sum(choices, (choice) => choice.effects.length),
    rules: sum(scene.optionBlocks, (block) => block.rules.length),
    animationBlocks: scene.animations.length,
    pricingBlocks: scene.pricingBlocks.length,
    formulaSteps: scene.formula.length,
    formFields: readFormFields(data.sceneData?.formFields).length,
  };
}

/**
 * The report of `data`; with `outlines` (asset id → its stored outline's names), the names the scene gives are
 * checked too, their warnings after the parser's (scene-names.ts).
 */
export function sceneReport(
  revision: number,
  data: ProjectData,
  outlines?: ReadonlyMap<string, OutlineNames>,
): SceneReport {
  const parsed = parseScene(data);
  const { scene } = parsed;
  const warnings = outlines ? withNameWarnings(parsed.warnings, data, outlines) : parsed.warnings;
  const defaultOptions = resolveOptions(scene, {}).options;
  return {
    revision,
    counts: countsOf(scene, data),
    warnings,
    defaultOptions,
    defaultPrice: computePrice(scene, defaultOptions, {}),
  };
}
