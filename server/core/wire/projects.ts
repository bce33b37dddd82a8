import { Type } from 'typebox';

/** The project list's answer, as a TypeBox schema the route documents with and the owner console types itself with. */
export const ProjectSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  revision: Type.Integer(),
  modelCount: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const ProjectListReply = Type.Object({
  success: Type.Boolean(),
  projects: Type.Array(ProjectSummary),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
