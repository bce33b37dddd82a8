import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ApiKey as ApiKeyRow } from '../../core/platform/db/schema/index.js';
import { IdParams, errors } from '../../schemas/common.js';

const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});

const toBody = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** API keys cannot manage API keys: a session of an owner or admin only. */
const sessionOnly = [{ bearer: [] }];

/** Workspace API keys (docs/api.md, Credentials and permissions): owners and admins, with a session. */
export default async function apiKeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { apiKeys } = app.deps.services;
  const tags = ['workspace'];

  app.post(
    '/workspace/api-keys',
    {
      onRequest: app.access('manage'),
      schema: {
        tags,
        security: sessionOnly,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: {
          201: Type.Object({ success: Type.Boolean(), apiKey: ApiKey, key: Type.String() }),
          ...errors(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const { row, key } = await apiKeys.create(request.auth.workspaceId, request.body.name, request.auth.personId);
      return reply.code(201).send({ success: true, apiKey: toBody(row), key });
    },
  );

  app.get(
    '/workspace/api-keys',
    {
      onRequest: app.access('manage'),
      schema: {
        tags,
        security: sessionOnly,
        response: { 200: Type.Object({ success: Type.Boolean(), apiKeys: Type.Array(ApiKey) }), ...errors(401, 403) },
      },
    },
    async (request) => {
      return { success: true, apiKeys: (await apiKeys.list(request.auth.workspaceId)).map(toBody) };
    },
  );

  app.delete(
    '/workspace/api-keys/:id',
    {
      onRequest: app.access('manage'),
      schema: {
        tags,
        security: sessionOnly,
        params: IdParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      await apiKeys.delete(request.auth.workspaceId, request.params.id);
      return { success: true };
    },
  );
}
