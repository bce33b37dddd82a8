import { isRecord, type Json } from './owner-values.js';
import { parseAnimations } from './parse-animations.js';
import { parseModels } from './parse-models.js';
import { parseOptionBlocks } from './parse-option-blocks.js';
import { parseFormula, parseNumberFields, parsePricingBlocks } from './parse-pricing.js';
import { parseSettings } from './parse-settings.js';
import { SceneWarnings } from './scene-warnings.js';
import type { Scene, SceneWarning } from './types.js';

/**
 * Parses a project's `data` (models, sceneData, saveConfigEnabled) per docs/scene-format.md, its
 * limits included. Never throws on owner data: unusable entries are dropped with a warning.
 */
export function parseScene(data: unknown): { scene: Scene; warnings: SceneWarning[] } {
  try {
    return parse(data);
  } catch {
    // Only non-JSON input gets here (a throwing getter, an object that cannot become text).
    const { scene } = parse({});
    return { scene, warnings: [{ path: '', code: 'invalid_type', message: 'The project data is not plain JSON.' }] };
  }
}

function parse(data: unknown): { scene: Scene; warnings: SceneWarning[] } {
  const warnings = new SceneWarnings();
  let project: Json = {};
  if (isRecord(data)) project = data;
  else warnings.warn('', 'invalid_type', 'The project data must be an object.');
  let sceneData: Json = {};
  if (isRecord(project.sceneData)) sceneData = project.sceneData;
  else if (project.sceneData !== undefined && project.sceneData !== null) {
    warnings.warn('sceneData', 'invalid_type', 'sceneData must be an object.');
  }

  const models = parseModels(project.models, warnings);
  const optionBlocks = parseOptionBlocks(sceneData.optionBlocks, models, warnings);
  const pricingBlocks = parsePricingBlocks(sceneData.pricingBlocks, optionBlocks, warnings);
  const numberFields = parseNumberFields(sceneData.formFields, warnings);
  const formula = parseFormula(sceneData.pricingFormula, optionBlocks, numberFields, warnings);
  const animations = parseAnimations(sceneData.animationBlocks, optionBlocks, models, warnings);
  const settings = parseSettings(sceneData.projectSettings, warnings);
  if (project.saveConfigEnabled !== undefined && typeof project.saveConfigEnabled !== 'boolean') {
    warnings.warn('saveConfigEnabled', 'invalid_type', 'saveConfigEnabled must be true or false.');
  }
  const hasPricing =
    pricingBlocks.length > 0 ||
    formula.length > 0 ||
    optionBlocks.some((block) => block.choices.some((choice) => choice.price !== null));
  const scene: Scene = {
    models,
    optionBlocks,
    pricingBlocks,
    formula,
    numberFields,
    animations,
    settings,
    saveConfigEnabled: project.saveConfigEnabled === true,
    hasPricing,
  };
  return { scene, warnings: warnings.list };
}
