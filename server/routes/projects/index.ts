import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createProjectRepository, normalizeData, toProjectBody } from '../../core/repositories/projects.js';
import { Project, ProjectInput, ProjectSummary } from '../../schemas/projects.js';
import { IdParams, PageQuery, errors, pageLimit } from '../../schemas/common.js';
import { decodeCursor } from '../../core/repositories/pagination.js';
import { invalidRequest, notFound } from '../../core/domain/errors.js';
import { emitEvent } from '../../core/repositories/events.js';
import type { ProjectData } from '../../core/domain/scene.js';

const ProjectReply = Type.Object({ success: Type.Boolean(), project: Project });

/**
 * Model ids are the keyspace option blocks target (targetObjectId) and model-urls answers by:
 * two models with one id would make both ambiguous.
 */
function assertUniqueModelIds(models: ReadonlyArray<{ id: string }> = []) {
  const seen = new Set<string>();
  const details = models.flatMap((model, index) => {
    if (!seen.has(model.id)) {
      seen.add(model.id);
      return [];
    }
    return [{ field: `body.data.models.${index}.id`, message: `repeats the id "${model.id}" of an earlier model` }];
  });
  if (details.length > 0) throw invalidRequest(`${details[0].field} ${details[0].message}`, details);
}

/** Owner projects (contract section 3). The scene is stored compressed; revision bumps on every change. */
export default async function projectRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const repo = createProjectRepository(app.deps.db);
  const tags = ['projects'];

  app.post(
    '/projects',
    { onRequest: app.access('write'), bodyLimit: 10 * 1024 * 1024, schema: { tags, body: ProjectInput, response: { 201: ProjectReply, ...errors(400, 401, 403) } } },
    async (request, reply) => {
      const { name, type, data } = request.body;
      assertUniqueModelIds(data?.models);
      const row = await repo.create(request.auth.workspaceId, { name, type, data: normalizeData(data as Partial<ProjectData>) });
      return reply.code(201).send({ success: true, project: toProjectBody(row) });
    },
  );

  app.get(
    '/projects',
    { onRequest: app.access('read'), schema: { tags, querystring: PageQuery, response: { 200: Type.Object({ success: Type.Boolean(), projects: Type.Array(ProjectSummary), nextCursor: Type.Union([Type.String(), Type.Null()]) }), ...errors(400, 401, 403) } } },
    async (request) => {
      const page = await repo.list(request.auth.workspaceId, pageLimit(request.query.limit), decodeCursor(request.query.cursor));
      return {
        success: true,
        projects: page.items.map((p) => ({ ...p, createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString() })),
        nextCursor: page.nextCursor,
      };
    },
  );

  app.get(
    '/projects/:id',
    { onRequest: app.access('read'), schema: { tags, params: IdParams, response: { 200: ProjectReply, ...errors(401, 403, 404) } } },
    async (request) => {
      const row = await repo.get(request.auth.workspaceId, request.params.id);
      if (!row) throw notFound('Project');
      return { success: true, project: toProjectBody(row) };
    },
  );

  app.put(
    '/projects/:id',
    { onRequest: app.access('write'), bodyLimit: 10 * 1024 * 1024, schema: { tags, params: IdParams, body: ProjectInput, response: { 200: ProjectReply, ...errors(400, 401, 403, 404) } } },
    async (request) => {
      const { workspaceId } = request.auth;
      const { name, type, data } = request.body;
      assertUniqueModelIds(data?.models);
      const row = await app.deps.db.transaction(async (tx) => {
        const updated = await repo.replace(tx, workspaceId, request.params.id, { name, type, data: normalizeData(data as Partial<ProjectData>) });
        if (!updated) return null;
        await emitEvent(tx, { workspaceId, projectId: updated.id, type: 'project.updated', data: { projectId: updated.id, name: updated.name, revision: updated.revision } });
        return updated;
      });
      if (!row) throw notFound('Project');
      return { success: true, project: toProjectBody(row) };
    },
  );

  app.delete(
    '/projects/:id',
    { onRequest: app.access('write'), schema: { tags, params: IdParams, response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(401, 403, 404) } } },
    async (request) => {
      const deleted = await repo.delete(request.auth.workspaceId, request.params.id);
      if (!deleted) throw notFound('Project');
      // Files go after the commit: a failed removal leaves an orphan file, never a dangling row.
      await Promise.all(deleted.storageKeys.map((key) => app.deps.storage.delete(key).catch((error: unknown) => request.log.warn({ err: error, key }, 'could not delete a request file'))));
      return { success: true };
    },
  );
}
