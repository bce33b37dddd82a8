import { Type, type Static } from 'typebox';

/**
 * A model's outline (docs/scene-format.md, "Model outlines"): what the file names, read once when the asset is saved,
 * so editors pick names instead of typing them and the scene report checks the names a scene gives.
 */
const Vec3 = Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number() });

const OutlineNode = Type.Object({
  name: Type.Union([Type.String(), Type.Null()], { description: 'As the file writes it; null when unnamed.' }),
  parent: Type.Union([Type.Integer(), Type.Null()], { description: 'Index into nodes; null for a root.' }),
  mesh: Type.Boolean({ description: 'Whether the node draws a mesh.' }),
  children: Type.Array(Type.Integer(), { description: 'Indexes into nodes.' }),
});

export const Outline = Type.Object({
  nodes: Type.Array(OutlineNode),
  materials: Type.Array(Type.Union([Type.String(), Type.Null()])),
  variants: Type.Array(Type.String()),
  animations: Type.Array(Type.Object({ name: Type.Union([Type.String(), Type.Null()]), duration: Type.Number() })),
  bounds: Type.Object(
    { min: Vec3, max: Vec3 },
    { description: 'Scene space, the file transforms applied; all zeros when nothing is drawn.' },
  ),
  triangles: Type.Integer({ minimum: 0 }),
  vertices: Type.Integer({ minimum: 0 }),
  truncated: Type.Optional(Type.Boolean({ description: 'More than 10,000 nodes or 2,000 materials.' })),
});
export type Outline = Static<typeof Outline>;

export const OutlineReply = Type.Object({ success: Type.Boolean(), outline: Outline });
