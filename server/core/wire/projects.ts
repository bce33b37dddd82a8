import { Type } from 'typebox';
import { SceneWarningSchema } from './scene-report.js';

const ThumbnailUrl = Type.Union([Type.String(), Type.Null()], {
  description: 'A signed URL of the picture set with PUT /projects/:id/thumbnail; null when none is set.',
});

/** The project reads' answers, as TypeBox schemas the routes document with and the owner console types itself with. */
export const ProjectSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  revision: Type.Integer(),
  modelCount: Type.Integer(),
  thumbnailUrl: ThumbnailUrl,
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
  thumbnailUrl: ThumbnailUrl,
  data: Type.Object({}, { additionalProperties: true }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const ProjectReply = Type.Object({ success: Type.Boolean(), project: Project });

/** `POST /projects`, `PUT /projects/:id` and a restore: the saved project and what the scene report says of it. */
export const ProjectSaveReply = Type.Object({
  success: Type.Boolean(),
  project: Project,
  warnings: Type.Array(SceneWarningSchema, {
    description: "The scene report's warnings about the saved data; a save is never refused for a warning.",
  }),
});

const SavedBy = Type.Union(
  [Type.Object({ id: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }), Type.Null()],
  {
    description:
      "The person whose credentials saved the revision; for an API key, the key's creator. " +
      'null when unknown (a key whose creator is not recorded, a revision kept from before revisions were ' +
      'recorded) or since deleted.',
  },
);

/** `GET /projects/:id/revisions`. */
export const ProjectRevisionListReply = Type.Object({
  success: Type.Boolean(),
  revisions: Type.Array(Type.Object({ revision: Type.Integer(), savedAt: Type.String(), savedBy: SavedBy }), {
    description: 'The kept revisions (the newest 50), newest first.',
  }),
});

/** `GET /projects/:id/revisions/:revision`. */
export const ProjectRevisionReply = Type.Object({
  success: Type.Boolean(),
  revision: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  data: Type.Object({}, { additionalProperties: true }),
  savedAt: Type.String(),
});
