import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createProjectRepository } from '../../core/repositories/projects.js';
import { createSubmissionRepository, toStepsBody } from '../../core/repositories/submissions.js';
import { IdParams, PageQuery, errors, pageLimit } from '../../schemas/common.js';
import { RequestListReply, RequestParams, RequestReply, RequestStatusBody, type RequestStatus } from '../../schemas/submissions.js';
import { decodeCursor } from '../../core/repositories/pagination.js';
import { notFound } from '../../core/domain/errors.js';
import { emitEvent } from '../../core/repositories/events.js';
import type { Submission } from '../../core/platform/db/schema/index.js';

/** Signed screenshot and PDF URLs in owner reads live this long. */
const FILE_URL_SECONDS = 3600;

function baseBody(row: Submission) {
  return {
    id: row.id,
    projectId: row.projectId,
    status: row.status as RequestStatus,
    formData: row.formData,
    selectedOptions: row.selectedOptions,
    configurationSummary: row.configurationSummary,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The owner side of form submissions (contract section 6): list, read (with the state of each
 * background step and signed file URLs), set the status (quote.updated) and delete
 * (quote.deleted). Viewers may read; changes need write access.
 */
export default async function requestRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, signer, storage } = app.deps;
  const projects = createProjectRepository(db);
  const repo = createSubmissionRepository(db);
  const tags = ['requests'];

  type Found = NonNullable<Awaited<ReturnType<typeof repo.get>>>;
  const detailBody = ({ row, steps, screenshots }: Found) => ({
    ...baseBody(row),
    steps: toStepsBody(steps),
    screenshots: screenshots.map((s) => (s.storageKey ? signer.signFor(s.storageKey, FILE_URL_SECONDS) : null)),
    pdfUrl: row.pdfKey ? signer.signFor(row.pdfKey, FILE_URL_SECONDS) : null,
  });

  app.get(
    '/projects/:id/requests',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: "List the project's requests (form submissions), newest first.",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: RequestListReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId } = request.auth;
      if (!(await projects.exists(workspaceId, request.params.id))) throw notFound('Project');
      const page = await repo.list(workspaceId, request.params.id, pageLimit(request.query.limit), decodeCursor(request.query.cursor));
      return {
        success: true,
        requests: page.items.map(({ row, steps, screenshotCount }) => ({ ...baseBody(row), steps: toStepsBody(steps), screenshotCount })),
        nextCursor: page.nextCursor,
      };
    },
  );

  app.get(
    '/projects/:id/requests/:requestId',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: 'Read a request with its screenshots, PDF and the state of each background step.',
        params: RequestParams,
        response: { 200: RequestReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const found = await repo.get(request.auth.workspaceId, request.params.id, request.params.requestId);
      if (!found) throw notFound('Request');
      return { success: true, request: detailBody(found) };
    },
  );

  app.patch(
    '/projects/:id/requests/:requestId',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        summary: "Set a request's status (emits quote.updated when it changes).",
        params: RequestParams,
        body: RequestStatusBody,
        response: { 200: RequestReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId } = request.auth;
      const { id: projectId, requestId } = request.params;
      const changed = await db.transaction(async (tx) => {
        const result = await repo.setStatus(tx, workspaceId, projectId, requestId, request.body.status);
        if (!result) return null;
        if (!result.changed) return result;
        await emitEvent(tx, {
          workspaceId,
          projectId,
          type: 'quote.updated',
          data: { requestId, projectId, status: result.row.status, previousStatus: result.previousStatus, updatedAt: result.row.updatedAt.toISOString() },
        });
        return result;
      });
      if (!changed) throw notFound('Request');
      const found = await repo.get(workspaceId, projectId, requestId);
      if (!found) throw notFound('Request');
      return { success: true, request: detailBody(found) };
    },
  );

  app.delete(
    '/projects/:id/requests/:requestId',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        summary: 'Delete a request and its files (emits quote.deleted).',
        params: RequestParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId } = request.auth;
      const { id: projectId, requestId } = request.params;
      const deleted = await db.transaction(async (tx) => {
        // The event in the deleting transaction: it exists exactly when the request is gone.
        const result = await repo.delete(tx, workspaceId, projectId, requestId);
        if (!result) return null;
        await emitEvent(tx, {
          workspaceId,
          projectId,
          type: 'quote.deleted',
          data: { requestId, projectId, status: result.row.status, deletedAt: new Date().toISOString() },
          dedupeKey: `submission:${requestId}:quote.deleted`,
        });
        return result;
      });
      if (!deleted) throw notFound('Request');
      // Files go after commit; a step still running notices the request is gone and cleans up after itself.
      await Promise.all(deleted.storageKeys.map((key) => storage.delete(key).catch((error: unknown) => request.log.warn({ err: error, key }, 'could not delete a request file'))));
      return { success: true };
    },
  );
}
