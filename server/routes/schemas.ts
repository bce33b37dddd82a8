import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ProjectDataSchema } from '../core/wire/project-data-schema.js';
import { etagMatches } from '../core/domain/public-payload.js';

const PROJECT_DATA_SCHEMA_PATH = '/schemas/project-data.json';

/** Where this server publishes the project data schema: its `$id`, and what the OpenAPI description references. */
export const projectDataSchemaUrl = (publicBaseUrl: string) => `${publicBaseUrl}${PROJECT_DATA_SCHEMA_PATH}`;

/**
 * `GET /schemas/project-data.json`: the JSON Schema of a project's `data` (docs/scene-format.md) for editors,
 * IDEs and scripts. Public and the same for every caller, so any cache and any origin may keep it.
 */
export default async function schemaRoutes(app: FastifyInstance) {
  const document = JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: projectDataSchemaUrl(app.deps.config.publicBaseUrl),
    title: 'config-share project data',
    ...ProjectDataSchema,
  });
  const etag = `"${createHash('sha256').update(document).digest('base64url').slice(0, 27)}"`;

  app.get(
    PROJECT_DATA_SCHEMA_PATH,
    {
      schema: {
        tags: ['meta'],
        summary: "The JSON Schema (draft 2020-12) of a project's data; advisory, saving does not enforce it.",
        security: [],
      },
    },
    async (request, reply) => {
      reply
        .header('cache-control', 'public, max-age=3600')
        .header('etag', etag)
        .header('access-control-allow-origin', '*')
        .header('access-control-expose-headers', 'ETag');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/schema+json; charset=utf-8').send(document);
    },
  );
}
