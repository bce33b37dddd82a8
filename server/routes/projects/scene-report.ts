import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, errors } from '../../schemas/common.js';
import { SceneReportReply } from '../../core/wire/scene-report.js';

/** `GET /projects/:id/scene-report` (docs/scene-format.md): what the configurator makes of the stored scene. */
export default async function sceneReportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { sceneReport } = app.deps.services;

  app.get(
    '/projects/:id/scene-report',
    {
      onRequest: app.access('read'),
      schema: {
        tags: ['projects'],
        summary: "Check the project's scene data as the configurator reads it.",
        description:
          'The shared parser (the one the element, submit and the worker use) over the stored current revision: ' +
          'counts of what it kept, a warning for each entry it dropped or corrected, the default selections ' +
          'and their price. Part, material, variant and clip names are checked against the outlines stored when ' +
          'each model was saved (unknown_name, with suggestions; not_checked for a model without one); model ' +
          'files are not opened. Viewers may read.',
        params: IdParams,
        response: { 200: SceneReportReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true,
      ...(await sceneReport.report(request.auth.workspaceId, request.params.id)),
    }),
  );
}
