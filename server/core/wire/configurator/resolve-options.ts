import { setOwn } from './owner-values.js';
import type { BlockState, Options, ResolvedOptions, Scene } from './types.js';
import { whenHolds } from './when.js';

/**
 * Applies defaults and rules (docs/scene-format.md, Option rules) to the requested selections, in one pass in block
 * order: a rule names only earlier blocks, so their selections are settled when it is read.
 */
export function resolveOptions(scene: Scene, requested: Record<string, unknown> | undefined): ResolvedOptions {
  const asked = requested && typeof requested === 'object' && !Array.isArray(requested) ? requested : {};
  const options: Options = {};
  const ignored: string[] = [];
  const blocks: Record<string, BlockState> = {};

  for (const block of scene.optionBlocks) {
    const hidden = new Set<string>();
    const disabled = new Set<string>();
    let hideBlock = false;
    for (const rule of block.rules) {
      if (!whenHolds(rule.when, options)) continue;
      rule.hide.forEach((id) => hidden.add(id));
      rule.disable.forEach((id) => disabled.add(id));
      hideBlock ||= rule.hideBlock;
    }
    const available = block.choices.filter((choice) => !hidden.has(choice.id) && !disabled.has(choice.id));
    const active = !hideBlock && available.length > 0;
    const state: BlockState = { active, hidden: [...hidden], disabled: [...disabled].filter((id) => !hidden.has(id)) };
    setOwn(blocks, block.id, state);

    const wanted = Object.hasOwn(asked, block.id) ? asked[block.id] : undefined;
    const chosen = active && typeof wanted === 'string' ? available.find((choice) => choice.id === wanted) : undefined;
    if (wanted !== undefined && !chosen) ignored.push(block.id);
    if (!active) continue;
    const selected = chosen ?? available.find((choice) => choice.id === block.defaultChoiceId) ?? available[0];
    setOwn(options, block.id, selected.id);
  }
  for (const key of Object.keys(asked)) {
    if (!scene.optionBlocks.some((block) => block.id === key)) ignored.push(key);
  }
  return { options, ignored, blocks };
}
