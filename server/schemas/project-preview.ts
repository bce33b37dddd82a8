import { Type } from 'typebox';
import { ProjectInput } from './projects.js';
import { PublicProjectReply } from './shares.js';
import { SceneWarningSchema } from '../core/wire/scene-report.js';

/** `POST /projects/:id/preview`: the `data` a save would take, checked by the same schema. */
export const ProjectPreviewBody = Type.Required(Type.Pick(ProjectInput, ['data']));

export const ProjectPreviewReply = Type.Object({
  success: Type.Boolean(),
  payload: Type.Object(PublicProjectReply.properties, {
    description:
      'Exactly what GET /share/:projectId/:token would answer (200 body) if the project held this data: ' +
      'projectSettings redacted, model vectors as {x,y,z}, the first models with signed URLs.',
  }),
  warnings: Type.Array(SceneWarningSchema, { description: 'The warnings a save of this data would answer.' }),
});
