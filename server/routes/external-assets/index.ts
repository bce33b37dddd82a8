import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../schemas/common.js';
import { per } from '../../schemas/rate-text.js';
import {
  ImportAccepted,
  ImportBody,
  ImportJobList,
  ImportJobReply,
  ImportReused,
  ItemParams,
  ItemReply,
  ProvidersReply,
  SearchQuery,
  SearchReply,
} from '../../core/wire/libraries.js';
import { toImportJobBody } from '../presenters/import-job-body.js';
import { toAssetBody } from '../presenters/asset-body.js';

/**
 * The online libraries (docs/libraries.md). Session tokens only (an X-API-Key never gets here); viewers search
 * and read, importing needs a seat that writes assets.
 */
export default async function externalAssetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { services, signer, config } = app.deps;
  const { librarySearch, imports } = services;
  const tags = ['libraries'];
  const perPerson = (request: FastifyRequest) => request.auth.personId ?? request.auth.workspaceId;

  app.get(
    '/external-assets/search',
    {
      onRequest: app.access('read', { sessionOnly: true }),
      config: { rateLimit: { ...config.rateLimits.search, keyGenerator: perPerson, groupId: 'library-search' } },
      schema: {
        tags,
        summary: 'Search the three libraries at once',
        description:
          'Every selected library is asked in parallel with its own timeout (LIBRARY_TIMEOUT_MS); results are ' +
          'interleaved round-robin. ' +
          'providers[] reports each library: ok, error (failed or too slow), skipped (a filter it cannot apply, ' +
          'e.g. maxPolygons without polygon counts) or exhausted (no more pages). ' +
          '`nextCursor` is bound to the filters: sent with other filters it is 400 invalid_request. ' +
          `429 rate_limited past RATE_LIMIT_SEARCH (${per(config.rateLimits.search)} per person).`,
        querystring: SearchQuery,
        response: { 200: SearchReply, ...errors(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, ...(await librarySearch.search(request.query)) }),
  );

  app.get(
    '/external-assets/providers',
    {
      onRequest: app.access('read', { sessionOnly: true }),
      schema: {
        tags,
        summary: 'The libraries, what they support, and the categories',
        response: { 200: ProvidersReply, ...errors(401, 403) },
      },
    },
    async (request) => ({ success: true, ...(await librarySearch.providers(request.auth.personId!)) }),
  );

  app.get(
    '/external-assets/items/:provider/:id',
    {
      onRequest: app.access('read', { sessionOnly: true }),
      schema: {
        tags,
        summary: 'A library model with details (the id URL-encoded)',
        params: ItemParams,
        response: { 200: ItemReply, ...errors(400, 401, 403, 404, 503) },
      },
    },
    async (request) => ({
      success: true,
      ...(await librarySearch.item(request.auth.workspaceId, request.params.provider, request.params.id)),
    }),
  );

  app.post(
    '/external-assets/imports',
    {
      // Any member passes here: the service checks the seat after reuse, and the start rate comes first.
      onRequest: app.access('read', { sessionOnly: true }),
      config: {
        rateLimit: {
          ...config.rateLimits.import,
          keyGenerator: perPerson,
          groupId: 'library-import',
          hook: 'onRequest',
        },
      },
      schema: {
        tags,
        summary: 'Import a library model into the workspace',
        description:
          'Re-reads the model, checks its licence, and queues the import job (202, status queued, progress 0); ' +
          'poll GET /external-assets/imports/:jobId. ' +
          '200 { reused: true } when the workspace already has the model. A second start of a model still ' +
          'importing returns that job. ' +
          'Errors: 400 invalid_request, 403 quota_exceeded | license_blocked | forbidden (viewers), 404 not_found, ' +
          '409 license_ack_required | auth_required, ' +
          `413 too_large (download over 80 MB), 422 not_importable, 429 rate_limited (RATE_LIMIT_IMPORT: ` +
          `${per(config.rateLimits.import)} per person) | too_many_imports (3 running per workspace), ` +
          '503 provider_not_configured (library_b without OAuth client) | unavailable (the library did not answer).',
        body: ImportBody,
        response: { 200: ImportReused, 202: ImportAccepted, ...errors(400, 401, 403, 404, 409, 413, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const { workspaceId, personId, role } = request.auth;
      const started = await imports.start(workspaceId, { id: personId!, mayWrite: role !== 'viewer' }, request.body);
      if (started.kind === 'reused')
        return reply
          .code(200)
          .send({ success: true, reused: true, assetId: started.asset.id, asset: toAssetBody(started.asset, signer) });
      return reply.code(202).send({ success: true, job: toImportJobBody(started.job) });
    },
  );

  app.get(
    '/external-assets/imports',
    {
      onRequest: app.access('read', { sessionOnly: true }),
      schema: {
        tags,
        summary: 'The 20 most recent import jobs of the workspace',
        response: { 200: ImportJobList, ...errors(401, 403) },
      },
    },
    async (request) => ({ success: true, jobs: (await imports.recent(request.auth.workspaceId)).map(toImportJobBody) }),
  );

  app.get(
    '/external-assets/imports/:jobId',
    {
      onRequest: app.access('read', { sessionOnly: true }),
      schema: {
        tags,
        summary: 'An import job',
        params: Type.Object({ jobId: Type.String({ format: 'uuid' }) }),
        response: { 200: ImportJobReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true,
      job: toImportJobBody(await imports.get(request.auth.workspaceId, request.params.jobId)),
    }),
  );
}
