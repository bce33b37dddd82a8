import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, errors } from '../../schemas/common.js';
import {
  IfMatchHeaders,
  RevisionConflictBody,
  RevisionParams,
  withRevisionEtag,
} from '../../schemas/project-revisions.js';
import { ProjectRevisionListReply, ProjectRevisionReply, ProjectSaveReply } from '../../core/wire/projects.js';
import { parseIfMatch, revisionEtag } from '../../core/domain/revision-precondition.js';
import { toSavedProjectBody } from '../presenters/project-body.js';
import { savedByOf } from './saved-by.js';

/** A project's kept revisions (docs/api.md, "Revisions and preview"): viewers read them, editors restore them. */
export default async function revisionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { projects, projectRevisions } = app.deps.services;
  const tags = ['projects'];

  app.get(
    '/projects/:id/revisions',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: "List a project's kept revisions.",
        description:
          'The newest 50 revisions of name, type and data, newest first, with who saved each. Viewers may read.',
        params: IdParams,
        response: { 200: ProjectRevisionListReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const revisions = await projectRevisions.list(request.auth.workspaceId, request.params.id);
      return {
        success: true,
        revisions: revisions.map((r) => ({ ...r, savedAt: r.savedAt.toISOString() })),
      };
    },
  );

  app.get(
    '/projects/:id/revisions/:revision',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: 'Read one kept revision.',
        description: 'Its name, type and data as saved (unredacted). A revision not kept (past the 50 newest): 404.',
        params: RevisionParams,
        response: { 200: ProjectRevisionReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const kept = await projectRevisions.get(
        request.auth.workspaceId,
        request.params.id,
        Number(request.params.revision),
      );
      return { success: true, ...kept, savedAt: kept.savedAt.toISOString() };
    },
  );

  app.post(
    '/projects/:id/revisions/:revision/restore',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        summary: 'Restore a kept revision as a new revision.',
        description:
          "Saves the revision's name, type and data as the project's next revision and answers as PUT does " +
          '(ETag, warnings, project.updated). If-Match is checked against the current revision (412 ' +
          'revision_conflict, nothing written). A revision not kept: 404.',
        params: RevisionParams,
        headers: IfMatchHeaders,
        response: { 200: withRevisionEtag(ProjectSaveReply), ...errors(400, 401, 403, 404), 412: RevisionConflictBody },
      },
    },
    async (request, reply) => {
      const saved = await projects.restore(
        request.auth.workspaceId,
        request.params.id,
        Number(request.params.revision),
        {
          savedBy: savedByOf(request),
          expected: parseIfMatch(request.headers['if-match']),
        },
      );
      reply.header('etag', revisionEtag(saved.project.revision));
      return toSavedProjectBody(saved, app.deps.signer);
    },
  );
}
