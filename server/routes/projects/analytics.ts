import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, errors } from '../../schemas/common.js';
import { AnalyticsQuery, AnalyticsReply } from '../../core/wire/analytics.js';

/** `GET /projects/:id/analytics` (docs/api.md, Analytics): with the permissions of GET /projects/:id. */
export default async function analyticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { visitorAnalytics } = app.deps.services;

  app.get(
    '/projects/:id/analytics',
    {
      onRequest: app.access('read'),
      schema: {
        tags: ['projects'],
        summary: "A project's visitor analytics per UTC day.",
        description:
          'Viewers may read it; a project of another workspace is 404. `from` and `to` are UTC days, both ' +
          'included (default: the last 30 days ending today); a date that does not exist, from after to, or ' +
          'more than 366 days is 400 invalid_request naming the parameter; `top` 1 to 50 (default 10). ' +
          '`days` lists every date with zeros; `sessions` are distinct sessionIds per day, summed over days in ' +
          'totals; `topChoices` count option.changed by choice, labelled from the current revision (null when ' +
          'gone); `conversion` is submissions ÷ sessions, 4 decimals, null without sessions.',
        params: IdParams,
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => visitorAnalytics.read(request.auth.workspaceId, request.params.id, request.query),
  );
}
