import type { ProjectDataDraft } from './editor-types.js';

/**
 * The parts of `data` the re-apply compares and copies as wholes: each top-level key, and each key of `sceneData`
 * (optionBlocks, pricing, formFields, animationBlocks, projectSettings, ...). Finer paths would merge half of a block.
 */
const SCENE = 'sceneData.';

function entries(data: ProjectDataDraft): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(data)) if (key !== 'sceneData') out.set(key, value);
  for (const [key, value] of Object.entries(data.sceneData ?? {})) out.set(SCENE + key, value);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The paths (as `entries` names them) where `mine` differs from `base`: what this session changed. */
function changedPaths(base: ProjectDataDraft, mine: ProjectDataDraft): string[] {
  const before = entries(base);
  const after = entries(mine);
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => !same(before.get(key), after.get(key)));
}

/**
 * Someone else saved while this session edited: their data with this session's changes laid on top, path by path
 * (`changedPaths`); what only they changed is kept, and where both changed the same path, this session's value wins.
 */
export function reapplyEdits(base: ProjectDataDraft, mine: ProjectDataDraft, theirs: ProjectDataDraft) {
  const next: ProjectDataDraft = { ...theirs, sceneData: { ...(theirs.sceneData ?? {}) } };
  const target = next as unknown as Record<string, unknown>;
  const source = entries(mine);
  for (const path of changedPaths(base, mine)) {
    const inScene = path.startsWith(SCENE);
    const record = inScene ? next.sceneData : target;
    const name = inScene ? path.slice(SCENE.length) : path;
    if (source.has(path)) record[name] = source.get(path);
    else delete record[name];
  }
  return next;
}
