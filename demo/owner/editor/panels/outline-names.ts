import type { ModelOutline, OutlinesByModel } from '../editor-types.js';

/** The names an effect or animation can pick, read from the models' outlines (docs/scene-format.md). */
export interface NodeName {
  name: string;
  /** Depth in the node tree, for the picker's indentation. */
  depth: number;
}

export interface OutlineNames {
  nodes: NodeName[];
  materials: string[];
  variants: string[];
  animations: { name: string; duration: number }[];
  /** False when no outline is known yet: names cannot be checked. */
  known: boolean;
}

/** Named nodes in tree order (roots first, each followed by its subtree); unnamed nodes only deepen their children. */
export function nodeNames(outline: ModelOutline): NodeName[] {
  const names: NodeName[] = [];
  const seen = new Set<number>();
  const visit = (index: number, depth: number) => {
    const node = outline.nodes[index];
    if (!node || seen.has(index)) return;
    seen.add(index);
    if (node.name !== null) names.push({ name: node.name, depth });
    node.children.forEach((child) => visit(child, node.name === null ? depth : depth + 1));
  };
  outline.nodes.forEach((node, i) => {
    if (node.parent === null) visit(i, 0);
  });
  outline.nodes.forEach((_, i) => visit(i, 0));
  return names;
}

const unique = <T>(items: T[], key: (item: T) => string) => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && !!seen.add(key(item)));
};

/** The names of one model, or of every model (the union, first model first) when `modelId` is null. */
export function outlineNames(outlines: OutlinesByModel, modelId: string | null): OutlineNames {
  const chosen = (modelId === null ? Object.values(outlines) : [outlines[modelId]]).filter(
    (outline): outline is ModelOutline => outline !== undefined,
  );
  return {
    nodes: unique(
      chosen.flatMap((outline) => nodeNames(outline)),
      (node) => node.name,
    ),
    materials: unique(
      chosen.flatMap((outline) => outline.materials.filter((name): name is string => name !== null)),
      (name) => name,
    ),
    variants: unique(
      chosen.flatMap((outline) => outline.variants),
      (name) => name,
    ),
    animations: unique(
      chosen.flatMap((outline) =>
        outline.animations.flatMap((clip) =>
          clip.name === null ? [] : [{ name: clip.name, duration: clip.duration }],
        ),
      ),
      (clip) => clip.name,
    ),
    known: chosen.length > 0,
  };
}
