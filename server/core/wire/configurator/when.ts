import { isRecord, join, readEntries, readId, setOwn } from './owner-values.js';
import type { SceneWarnings } from './scene-warnings.js';
import type { OptionBlock, Options, When } from './types.js';

/** Blocks one `when` may name (docs/scene-format.md, Limits). */
export const MAX_WHEN_BLOCKS = 10;

/**
 * Holds when every named block's selection is one of those listed; an inactive block has none
 * (docs/scene-format.md, Option rules).
 */
export function whenHolds(when: When | null, options: Options): boolean {
  if (!when) return true;
  return Object.entries(when).every(
    ([blockId, choiceIds]) => Object.hasOwn(options, blockId) && choiceIds.includes(options[blockId]),
  );
}

/**
 * Reads `{ "<blockId>": "<choiceId>" | ["<choiceId>", …] }` against `blocks` (for rules, only the
 * earlier blocks). Null when it names an unknown block or choice: the rule or step is then dropped.
 */
export function readWhen(value: unknown, blocks: readonly OptionBlock[], path: string, warnings: SceneWarnings) {
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', '`when` is { "<blockId>": "<choiceId>" or ["<choiceId>", …] }.');
    return null;
  }
  const when: When = {};
  for (const [blockId, listed] of readEntries(value, MAX_WHEN_BLOCKS, path, warnings)) {
    const block = blocks.find((entry) => entry.id === blockId);
    if (!block) {
      const message = `No option block "${blockId}" here; a rule names only earlier blocks.`;
      warnings.warn(join(path, blockId), 'unknown_reference', message);
      return null;
    }
    const choiceIds: string[] = [];
    for (const [i, raw] of (Array.isArray(listed) ? listed : [listed]).entries()) {
      const entryPath = Array.isArray(listed) ? join(join(path, blockId), i) : join(path, blockId);
      const choiceId = readId(raw, entryPath, warnings);
      if (choiceId === undefined) return null;
      if (!block.choices.some((choice) => choice.id === choiceId)) {
        warnings.warn(entryPath, 'unknown_reference', `Block "${blockId}" has no choice "${choiceId}".`);
        return null;
      }
      choiceIds.push(choiceId);
    }
    setOwn(when, blockId, choiceIds);
  }
  return when;
}
