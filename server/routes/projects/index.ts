import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { thumbnailUrlOf, toProjectBody, toSavedProjectBody } from '../presenters/project-body.js';
import { ProjectInput } from '../../schemas/projects.js';
import { IfMatchHeaders, RevisionConflictBody, withRevisionEtag } from '../../schemas/project-revisions.js';
import { ProjectListReply, ProjectReply, ProjectSaveReply } from '../../core/wire/projects.js';
import { parseIfMatch, revisionEtag } from '../../core/domain/revision-precondition.js';
import { IdParams, PageQuery, errors, pageLimit } from '../../schemas/common.js';
import { decodeCursor } from '../../core/domain/page-cursor.js';
import type { ProjectData } from '../../core/domain/scene.js';
import sceneReportRoutes from './scene-report.js';
import revisionRoutes from './revisions.js';
import previewRoutes from './preview.js';
import thumbnailRoutes from './thumbnail.js';
import projectConfigurationRoutes from './configurations.js';
import { savedByOf } from './saved-by.js';

/**
 * Owner projects (docs/api.md). The scene is stored compressed; revision bumps on every change and is the
 * ETag (`"r<revision>"`) that If-Match names on a save.
 */
export default async function projectRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { signer } = app.deps;
  const { projects } = app.deps.services;
  const tags = ['projects'];
  await app.register(sceneReportRoutes);
  await app.register(revisionRoutes);
  await app.register(previewRoutes);
  await app.register(thumbnailRoutes);
  await app.register(projectConfigurationRoutes);

  app.post(
    '/projects',
    {
      onRequest: app.access('write'),
      bodyLimit: 10 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Create a project.',
        description: "Answers the scene report's warnings about the saved data; a warning never refuses a save.",
        body: ProjectInput,
        response: { 201: withRevisionEtag(ProjectSaveReply), ...errors(400, 401, 403, 413) },
      },
    },
    async (request, reply) => {
      const { name, type, data } = request.body;
      const saved = await projects.create(
        request.auth.workspaceId,
        { name, type, data: data as Partial<ProjectData> | undefined },
        savedByOf(request),
      );
      return reply
        .code(201)
        .header('etag', revisionEtag(saved.project.revision))
        .send(toSavedProjectBody(saved, signer));
    },
  );

  app.get(
    '/projects',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        querystring: PageQuery,
        response: {
          200: ProjectListReply,
          ...errors(400, 401, 403),
        },
      },
    },
    async (request) => {
      const page = await projects.list(
        request.auth.workspaceId,
        pageLimit(request.query.limit),
        decodeCursor(request.query.cursor),
      );
      return {
        success: true,
        projects: page.items.map(({ thumbnailKey, ...p }) => ({
          ...p,
          thumbnailUrl: thumbnailUrlOf(thumbnailKey, signer),
          createdAt: p.createdAt.toISOString(),
          updatedAt: p.updatedAt.toISOString(),
        })),
        nextCursor: page.nextCursor,
      };
    },
  );

  app.get(
    '/projects/:id',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: 'Read a project, unredacted.',
        description: 'ETag: "r<revision>", the value If-Match takes on PUT and restore.',
        params: IdParams,
        response: { 200: withRevisionEtag(ProjectReply), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const row = await projects.get(request.auth.workspaceId, request.params.id);
      reply.header('etag', revisionEtag(row.revision));
      return { success: true, project: toProjectBody(row, signer) };
    },
  );

  app.put(
    '/projects/:id',
    {
      onRequest: app.access('write'),
      bodyLimit: 10 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Replace a project (a new revision).',
        description:
          'With If-Match naming another revision than the current one: 412 revision_conflict with ' +
          "currentRevision, nothing written. Answers the new ETag and the scene report's warnings about the " +
          'saved data; a warning never refuses a save.',
        params: IdParams,
        headers: IfMatchHeaders,
        body: ProjectInput,
        response: {
          200: withRevisionEtag(ProjectSaveReply),
          ...errors(400, 401, 403, 404, 413),
          412: RevisionConflictBody,
        },
      },
    },
    async (request, reply) => {
      const { name, type, data } = request.body;
      const saved = await projects.replace(
        request.auth.workspaceId,
        request.params.id,
        { name, type, data: data as Partial<ProjectData> | undefined },
        { savedBy: savedByOf(request), expected: parseIfMatch(request.headers['if-match']) },
      );
      reply.header('etag', revisionEtag(saved.project.revision));
      return toSavedProjectBody(saved, signer);
    },
  );

  app.delete(
    '/projects/:id',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        params: IdParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      await projects.delete(request.auth.workspaceId, request.params.id);
      return { success: true };
    },
  );
}
