import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiKeys } from '../../core/platform/db/schema/index.js';
import { hashApiKey } from '../../plugins/auth.js';
import { IdParams, errors } from '../../schemas/common.js';
import { conflict, notFound } from '../../core/domain/errors.js';

const ApiKey = Type.Object({ id: Type.String(), name: Type.String(), createdAt: Type.String(), lastUsedAt: Type.Union([Type.String(), Type.Null()]) });
const MAX_KEYS_PER_WORKSPACE = 50;

const toBody = (row: typeof apiKeys.$inferSelect) => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** API keys cannot manage API keys: a session of an owner or admin only. */
const sessionOnly = [{ bearer: [] }];

/** Workspace API keys (contract section 2): owners and admins, with a session. */
export default async function apiKeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const tags = ['workspace'];

  app.post(
    '/workspace/api-keys',
    {
      onRequest: app.access('manage'),
      schema: {
        tags,
        security: sessionOnly,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 201: Type.Object({ success: Type.Boolean(), apiKey: ApiKey, key: Type.String() }), ...errors(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { workspaceId, personId } = request.auth;
      const count = await db.$count(apiKeys, eq(apiKeys.workspaceId, workspaceId));
      if (count >= MAX_KEYS_PER_WORKSPACE) throw conflict(`A workspace holds at most ${MAX_KEYS_PER_WORKSPACE} API keys.`);
      const key = `csk_${randomBytes(32).toString('base64url')}`;
      const [row] = await db.insert(apiKeys).values({ workspaceId, name: request.body.name, keyHash: hashApiKey(key), createdBy: personId }).returning();
      return reply.code(201).send({ success: true, apiKey: toBody(row), key });
    },
  );

  app.get(
    '/workspace/api-keys',
    { onRequest: app.access('manage'), schema: { tags, security: sessionOnly, response: { 200: Type.Object({ success: Type.Boolean(), apiKeys: Type.Array(ApiKey) }), ...errors(401, 403) } } },
    async (request) => {
      const rows = await db.select().from(apiKeys).where(eq(apiKeys.workspaceId, request.auth.workspaceId)).orderBy(desc(apiKeys.createdAt));
      return { success: true, apiKeys: rows.map(toBody) };
    },
  );

  app.delete(
    '/workspace/api-keys/:id',
    { onRequest: app.access('manage'), schema: { tags, security: sessionOnly, params: IdParams, response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(401, 403, 404) } } },
    async (request) => {
      const rows = await db.delete(apiKeys).where(and(eq(apiKeys.workspaceId, request.auth.workspaceId), eq(apiKeys.id, request.params.id))).returning({ id: apiKeys.id });
      if (rows.length === 0) throw notFound('API key');
      return { success: true };
    },
  );
}
