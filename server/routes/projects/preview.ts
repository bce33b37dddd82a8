import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, errors } from '../../schemas/common.js';
import { ProjectPreviewBody, ProjectPreviewReply } from '../../schemas/project-preview.js';
import type { ProjectData } from '../../core/domain/scene.js';

/** `POST /projects/:id/preview` (docs/api.md, "Revisions and preview"): unsaved data as the public read serves it. */
export default async function previewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { projectPreview } = app.deps.services;

  app.post(
    '/projects/:id/preview',
    {
      onRequest: app.access('write'),
      bodyLimit: 10 * 1024 * 1024,
      schema: {
        tags: ['projects'],
        summary: 'Preview unsaved data as the public read would serve it.',
        description:
          'Builds the public payload of this data for the project (its name and type) without saving, whether or ' +
          'not the project is shared: no ETag, Cache-Control: no-store, no event, no visitor analytics, not ' +
          'counted in the public read budget. Answers the warnings a save would give. Editors and above.',
        params: IdParams,
        body: ProjectPreviewBody,
        response: { 200: ProjectPreviewReply, ...errors(400, 401, 403, 404, 413) },
      },
    },
    async (request, reply) => {
      const preview = await projectPreview.preview(
        request.auth.workspaceId,
        request.params.id,
        request.body.data as Partial<ProjectData>,
      );
      reply.header('cache-control', 'no-store');
      return { success: true, ...preview };
    },
  );
}
