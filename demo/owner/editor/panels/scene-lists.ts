import type { ProjectDataDraft } from '../editor-types.js';
import { entryName, isRecord, listAt } from './draft-edit.js';

/** Where the panels' lists live in `data` (docs/scene-format.md). */
export const BLOCKS = ['sceneData', 'optionBlocks'] as const;
export const PRICING_BLOCKS = ['sceneData', 'pricingBlocks'] as const;
export const FORMULA = ['sceneData', 'pricingFormula'] as const;
export const FORM_FIELDS = ['sceneData', 'formFields'] as const;
export const ANIMATIONS = ['sceneData', 'animationBlocks'] as const;
export const SETTINGS = ['sceneData', 'projectSettings'] as const;

/** An id as the parser reads it: a string, or a number as its decimal string. */
export const idOf = (entry: unknown): string =>
  isRecord(entry) && (typeof entry.id === 'string' || typeof entry.id === 'number') ? String(entry.id) : '';

/** The model entries as select options: id → "fileName (id)". */
export function modelChoices(data: ProjectDataDraft): [string, string][] {
  return (Array.isArray(data.models) ? data.models : []).flatMap((model, i) => {
    const id = idOf(model);
    if (!id) return [];
    const file = typeof model.fileName === 'string' && model.fileName ? model.fileName : entryName(model, i);
    return [[id, file === id ? id : `${file} (${id})`]];
  });
}

export interface BlockSummary {
  index: number;
  id: string;
  name: string;
  choices: { id: string; label: string }[];
}

/** The option blocks with their choices, for selects of blocks and choices (rules, pricing, animations). */
export function blockSummaries(data: ProjectDataDraft): BlockSummary[] {
  return listAt(data, BLOCKS).flatMap((block, index) => {
    const id = idOf(block);
    if (!id || !isRecord(block)) return [];
    const choices = (Array.isArray(block.choices) ? block.choices : []).flatMap((choice, i) => {
      const choiceId = idOf(choice);
      return choiceId ? [{ id: choiceId, label: entryName(choice, i, 'label') }] : [];
    });
    return [{ index, id, name: entryName(block, index), choices }];
  });
}
