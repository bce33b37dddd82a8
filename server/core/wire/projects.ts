import { Type } from 'typebox';

/** The project reads' answers, as TypeBox schemas the routes document with and the owner console types itself with. */
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

/** `data` is the stored scene as the owner saved it: free-form JSON the configurator parses leniently. */
const Project = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  type: Type.String(),
  revision: Type.Integer(),
  data: Type.Object({}, { additionalProperties: true }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const ProjectReply = Type.Object({ success: Type.Boolean(), project: Project });
