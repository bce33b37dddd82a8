import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { toStepsBody } from '../presenters/steps-body.js';
import { IdParams, PageQuery, errors, pageLimit } from '../../schemas/common.js';
import {
  RequestListReply,
  RequestParams,
  RequestReply,
  RequestStatusBody,
  type RequestStatus,
} from '../../schemas/submissions.js';
import { decodeCursor } from '../../core/domain/page-cursor.js';
import type { Submission } from '../../core/platform/db/schema/index.js';
import { isPriceMismatch } from '../../core/domain/request-price.js';

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
    price: row.price,
    clientPrice: row.clientPrice,
    priceMismatch: isPriceMismatch(row.price, row.clientPrice),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The owner side of form submissions (docs/api.md, Requests). Viewers may read; changes need write access. */
export default async function requestRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { signer, services } = app.deps;
  const { submissions } = services;
  const tags = ['requests'];

  type Found = Awaited<ReturnType<typeof submissions.get>>;
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
      const page = await submissions.list(
        request.auth.workspaceId,
        request.params.id,
        pageLimit(request.query.limit),
        decodeCursor(request.query.cursor),
      );
      return {
        success: true,
        requests: page.items.map(({ row, steps, screenshotCount }) => ({
          ...baseBody(row),
          steps: toStepsBody(steps),
          screenshotCount,
        })),
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
      return {
        success: true,
        request: detailBody(
          await submissions.get(request.auth.workspaceId, request.params.id, request.params.requestId),
        ),
      };
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
      const found = await submissions.setStatus(
        request.auth.workspaceId,
        request.params.id,
        request.params.requestId,
        request.body.status,
      );
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
      await submissions.delete(request.auth.workspaceId, request.params.id, request.params.requestId);
      return { success: true };
    },
  );
}
