import { isRecord, join, type Json } from '../wire/configurator/owner-values.js';
import type { SceneWarning } from '../wire/configurator/index.js';
import { suggestNames } from './name-suggestions.js';

/**
 * Names checked (docs/api.md, "Model outlines and names checked"): every part, material, variant and clip name a
 * scene gives, against the stored outlines of the models it applies to. Reads the scene as the owner wrote it, so
 * paths are the owner's; what the parser drops for other reasons is its own warning.
 */

/** The names of one asset's stored outline (unnamed nodes and materials left out), and its file for messages. */
export interface OutlineNames {
  fileName: string;
  nodes: string[];
  materials: string[];
  variants: string[];
  animations: string[];
}

type Kind = 'nodes' | 'materials' | 'variants' | 'animations';
const KIND_LABEL: Record<Kind, string> = {
  nodes: 'Part',
  materials: 'Material',
  variants: 'Variant',
  animations: 'Clip',
};

/** The parser's own limits (docs/scene-format.md): entries past them are dropped there, not checked here. */
const LIMITS = { blocks: 100, choices: 100, effects: 20, nodes: 100, parts: 1000, animations: 50 };
/** Warnings of a report past this many collapse into one `too_many_warnings`, as the parser's do. */
const MAX_WARNINGS = 500;
/** Edit-distance work one report may spend on suggestions (see name-suggestions.ts). */
const SUGGESTION_CELLS = 20_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const list = (value: unknown, max: number): unknown[] => (Array.isArray(value) ? value.slice(0, max) : []);
const keys = (value: unknown, max: number): string[] => (isRecord(value) ? Object.keys(value).slice(0, max) : []);
const idOf = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

interface SceneModelEntry {
  id: string;
  /** Index in `models`, for the `not_checked` path. */
  index: number;
  names: OutlineNames | null;
  assetId: string | null;
}

/** The asset ids model entries name: what to load outlines for (a malformed id names no asset). */
export function modelAssetIds(data: unknown): string[] {
  const models = isRecord(data) ? list(data.models, Number.MAX_SAFE_INTEGER) : [];
  const ids = models.flatMap((model) =>
    isRecord(model) && typeof model.assetId === 'string' && UUID.test(model.assetId) ? [model.assetId] : [],
  );
  return [...new Set(ids)];
}

/** The model entries with an id, the first of a repeated id only (the parser drops the later one). */
function modelEntries(data: Json, outlines: ReadonlyMap<string, OutlineNames>): SceneModelEntry[] {
  const entries: SceneModelEntry[] = [];
  list(data.models, Number.MAX_SAFE_INTEGER).forEach((model, index) => {
    if (!isRecord(model)) return;
    const id = idOf(model.id);
    if (id === null || entries.some((entry) => entry.id === id)) return;
    const assetId = typeof model.assetId === 'string' ? model.assetId : null;
    entries.push({ id, index, assetId, names: (assetId && outlines.get(assetId)) || null });
  });
  return entries;
}

class NameChecker {
  private readonly budget = { cells: SUGGESTION_CELLS };
  private readonly sets = new Map<OutlineNames, Partial<Record<Kind, Set<string>>>>();

  private has(names: OutlineNames, kind: Kind, name: string): boolean {
    let sets = this.sets.get(names);
    if (!sets) this.sets.set(names, (sets = {}));
    return (sets[kind] ??= new Set(names[kind])).has(name);
  }

  /**
   * The warning for `name` at `path` when none of `models` has it; nothing when one does, or when a model it may
   * be in has no outline (its `not_checked` says so).
   */
  check(path: string, name: unknown, kind: Kind, models: SceneModelEntry[]): SceneWarning | null {
    if (typeof name !== 'string' || models.length === 0) return null;
    if (models.some((model) => model.names === null)) return null;
    const checked = models as Array<SceneModelEntry & { names: OutlineNames }>;
    if (checked.some((model) => this.has(model.names, kind, name))) return null;
    const where = checked.map((model) => `"${model.id}" (${model.names.fileName})`);
    const message =
      where.length === 1
        ? `${KIND_LABEL[kind]} "${name}" is not in model ${where[0]}.`
        : `${KIND_LABEL[kind]} "${name}" is in none of the models ${where.join(', ')}.`;
    const candidates = checked.flatMap((model) => model.names[kind]);
    return {
      path,
      code: 'unknown_name',
      message,
      suggestions: suggestNames(name, candidates, { limit: 3, budget: this.budget }),
    };
  }
}

/** Every name warning of the scene, in the order the scene gives the names; lazily, so a cut stops the work. */
function* nameWarnings(data: unknown, outlines: ReadonlyMap<string, OutlineNames>): Generator<SceneWarning> {
  if (!isRecord(data)) return;
  const models = modelEntries(data, outlines);
  const checker = new NameChecker();
  const byId = (value: unknown): SceneModelEntry[] | null => {
    const id = idOf(value);
    if (id === null) return null;
    const model = models.find((entry) => entry.id === id);
    return model ? [model] : [];
  };
  const found = (warning: SceneWarning | null) => (warning ? [warning] : []);

  for (const model of models) {
    const path = join('models', model.index);
    if (!model.names) {
      const reason = model.assetId
        ? 'its assetId is not an asset of this workspace with a stored outline'
        : 'it has no assetId';
      yield { path, code: 'not_checked', message: `The names of model "${model.id}" are not checked: ${reason}.` };
      continue;
    }
    const entry = (data.models as unknown[])[model.index] as Json;
    for (const name of keys(entry.partTransforms, LIMITS.parts))
      yield* found(checker.check(join(join(path, 'partTransforms'), name), name, 'nodes', [model]));
    for (const [i, name] of list(entry.deletedParts, LIMITS.parts).entries())
      yield* found(checker.check(join(join(path, 'deletedParts'), i), name, 'nodes', [model]));
    const pivot = isRecord(entry.pivotData) ? entry.pivotData : {};
    for (const name of keys(pivot.parts, LIMITS.parts))
      yield* found(checker.check(join(join(path, 'pivotData.parts'), name), name, 'nodes', [model]));
  }

  const scene = isRecord(data.sceneData) ? data.sceneData : {};
  for (const [b, block] of list(scene.optionBlocks, LIMITS.blocks).entries()) {
    if (!isRecord(block)) continue;
    const blockModels = byId(block.targetObjectId) ?? models;
    for (const [c, choice] of list(block.choices, LIMITS.choices).entries()) {
      if (!isRecord(choice)) continue;
      const effectsPath = `sceneData.optionBlocks.${b}.choices.${c}.effects`;
      for (const [e, effect] of list(choice.effects, LIMITS.effects).entries()) {
        if (!isRecord(effect)) continue;
        const path = join(effectsPath, e);
        const targets = byId(effect.model) ?? blockModels;
        if (effect.type === 'material' || effect.type === 'visibility' || effect.type === 'transform')
          for (const [n, name] of list(effect.nodes, LIMITS.nodes).entries())
            yield* found(checker.check(join(join(path, 'nodes'), n), name, 'nodes', targets));
        if (effect.type === 'material') {
          yield* found(checker.check(join(path, 'material'), effect.material, 'materials', targets));
          yield* found(checker.check(join(path, 'use'), effect.use, 'materials', targets));
        }
        if (effect.type === 'variant')
          yield* found(checker.check(join(path, 'name'), effect.name, 'variants', targets));
      }
    }
  }

  for (const [a, animation] of list(scene.animationBlocks, LIMITS.animations).entries()) {
    if (!isRecord(animation)) continue;
    const path = `sceneData.animationBlocks.${a}.clip`;
    yield* found(checker.check(path, animation.clip, 'animations', byId(animation.model) ?? models));
  }
}

/**
 * The parser's warnings followed by the name warnings, together at most 500 and then one `too_many_warnings` (the
 * parser's rule); `outlines` maps asset id to the names of its stored outline.
 */
export function withNameWarnings(
  parserWarnings: SceneWarning[],
  data: unknown,
  outlines: ReadonlyMap<string, OutlineNames>,
): SceneWarning[] {
  const warnings = [...parserWarnings];
  if (warnings.some((warning) => warning.code === 'too_many_warnings')) return warnings;
  for (const warning of nameWarnings(data, outlines)) {
    if (warnings.length === MAX_WARNINGS) {
      warnings.push({
        path: '',
        code: 'too_many_warnings',
        message: `More than ${MAX_WARNINGS} problems; the rest are not listed.`,
      });
      break;
    }
    warnings.push(warning);
  }
  return warnings;
}
