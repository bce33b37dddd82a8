import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery, errors, pageLimit } from '../../schemas/common.js';
import { decodeCursor } from '../../core/domain/page-cursor.js';
import { ConfigurationListReply } from '../../core/wire/configurations.js';

const CONFIGURATION_ID = /^[A-Za-z0-9_-]{22,64}$/;

/** `GET /projects/:id/configurations` (docs/cart.md): the cart configurations, newest first; viewers may read. */
export default async function projectConfigurationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { configurations } = app.deps.services;

  app.get(
    '/projects/:id/configurations',
    {
      onRequest: app.access('read'),
      schema: {
        tags: ['projects'],
        summary: "The project's cart configurations, newest first by createdAt (a repeat does not move one).",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: ConfigurationListReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const page = await configurations.list(
        request.auth.workspaceId,
        request.params.id,
        pageLimit(request.query.limit),
        decodeCursor(request.query.cursor, (id) => CONFIGURATION_ID.test(id)),
      );
      return { success: true, ...page };
    },
  );
}
