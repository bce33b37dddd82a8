import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { shareRequestOf, type PublicShareRouteOptions } from './share-request.js';
import { ModelUrlsBody, ModelUrlsReply, ModelUrlsHeaders, ShareParams, UnavailableBody } from '../../schemas/shares.js';
import { errors } from '../../schemas/common.js';

/**
 * `POST /share/:projectId/:token/model-urls` (docs/api.md, Public read): signed URLs for up to 20 models, with the
 * read's checks and rate-limit counter, identical to the read's within one signing window.
 */
export default async function modelUrlRoutes(fastify: FastifyInstance, { readRateLimit }: PublicShareRouteOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { publicShare } = app.deps.services;

  app.post(
    '/share/:projectId/:token/model-urls',
    {
      // The read's hook itself: one budget for both routes.
      onRequest: readRateLimit,
      // The share checks come before the body, as on the read and submit: a wrong token is 404
      // (a locked owner 402) whatever the body says.
      preParsing: async (request) => {
        request.shareAccess = await publicShare.authorize(shareRequestOf(request));
      },
      schema: {
        tags: ['public share'],
        summary: 'Signed URLs for models the read left without one (public).',
        description:
          "Same headers, checks and limits as the read; its calls count against the read's rate limit " +
          '(RATE_LIMIT_SHARE_READ, one budget for both). Unknown ids, and models without a file, are absent from urls.',
        security: [{ publicKey: [] }],
        params: ShareParams,
        headers: ModelUrlsHeaders,
        body: ModelUrlsBody,
        response: { 200: ModelUrlsReply, ...errors(400, 401, 403, 404, 429, 503), 402: UnavailableBody },
      },
    },
    async (request) => ({
      success: true,
      urls: await publicShare.modelUrls(request.shareAccess!, request.body.modelIds),
    }),
  );
}
