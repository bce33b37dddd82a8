import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { toProjectBody } from '../presenters/project-body.js';
import { ProjectInput } from '../../schemas/projects.js';
import { ProjectListReply, ProjectReply } from '../../core/wire/projects.js';
import { IdParams, PageQuery, errors, pageLimit } from '../../schemas/common.js';
import { decodeCursor } from '../../core/domain/page-cursor.js';
import type { ProjectData } from '../../core/domain/scene.js';
import sceneReportRoutes from './scene-report.js';

/** Owner projects (contract section 3). The scene is stored compressed; revision bumps on every change. */
export default async function projectRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { projects } = app.deps.services;
  const tags = ['projects'];
  await app.register(sceneReportRoutes);

  app.post(
    '/projects',
    {
      onRequest: app.access('write'),
      bodyLimit: 10 * 1024 * 1024,
      schema: { tags, body: ProjectInput, response: { 201: ProjectReply, ...errors(400, 401, 403) } },
    },
    async (request, reply) => {
      const { name, type, data } = request.body;
      const row = await projects.create(request.auth.workspaceId, {
        name,
        type,
        data: data as Partial<ProjectData> | undefined,
      });
      return reply.code(201).send({ success: true, project: toProjectBody(row) });
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
        projects: page.items.map((p) => ({
          ...p,
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
      schema: { tags, params: IdParams, response: { 200: ProjectReply, ...errors(401, 403, 404) } },
    },
    async (request) => {
      return { success: true, project: toProjectBody(await projects.get(request.auth.workspaceId, request.params.id)) };
    },
  );

  app.put(
    '/projects/:id',
    {
      onRequest: app.access('write'),
      bodyLimit: 10 * 1024 * 1024,
      schema: {
        tags,
        params: IdParams,
        body: ProjectInput,
        response: { 200: ProjectReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { name, type, data } = request.body;
      const row = await projects.replace(request.auth.workspaceId, request.params.id, {
        name,
        type,
        data: data as Partial<ProjectData> | undefined,
      });
      return { success: true, project: toProjectBody(row) };
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
