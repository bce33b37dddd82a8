import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { PublicShareOptions } from '../../core/services/public-share/share-access.js';
import { ModelUrlsBody, ModelUrlsReply, ModelUrlsHeaders, ShareParams, UnavailableBody } from '../../schemas/shares.js';
import { errors } from '../../schemas/common.js';
import { notFound } from '../../core/domain/errors.js';
import { decompressScene } from '../../core/domain/scene.js';
import { modelUrls, referencedAssetIds } from '../../core/domain/public-payload.js';
import { signingWindow } from '../../core/platform/storage/signed-urls.js';

/**
 * `POST /share/:projectId/:token/model-urls` (contract section 5, missing-URL fallback): signed
 * URLs for up to 20 models of the project, any of them, with the same checks as the read and
 * the read's own rate-limit counter. The URLs are the ones the read would give inside the same
 * signing window.
 */
export default async function modelUrlRoutes(fastify: FastifyInstance, { shares, authorize, readRateLimit }: PublicShareOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { signer } = app.deps;

  app.post(
    '/share/:projectId/:token/model-urls',
    {
      // The read's hook itself: one budget for both routes.
      onRequest: readRateLimit,
      // The share checks come before the body, as on the read and submit: a wrong token is 404
      // (a locked owner 402) whatever the body says.
      preParsing: async (request) => {
        request.shareAccess = await authorize(request, request.params as { projectId: string; token: string });
      },
      schema: {
        tags: ['public share'],
        summary: 'Signed URLs for models the read left without one (public).',
        description: 'Same headers, checks and limits as the read; its calls count against the read\'s rate limit (RATE_LIMIT_SHARE_READ, one budget for both). Unknown ids, and models without a file, are absent from urls.',
        security: [{ publicKey: [] }],
        params: ShareParams,
        headers: ModelUrlsHeaders,
        body: ModelUrlsBody,
        response: { 200: ModelUrlsReply, ...errors(400, 401, 403, 404, 429, 503), 402: UnavailableBody },
      },
    },
    async (request) => {
      const access = request.shareAccess!;
      const stored = await shares.scene(access.workspaceId, access.projectId);
      if (!stored) throw notFound('Share');
      const data = decompressScene(stored.scene);
      const models = (data.models ?? []).filter((model) => model && typeof model === 'object' && request.body.modelIds.includes(String(model.id)));
      const assetKeys = await shares.assetKeys(access.workspaceId, referencedAssetIds(models));
      const window = signingWindow();
      const urls = modelUrls(data, request.body.modelIds, { workspaceId: access.workspaceId, projectId: access.projectId, assetKeys }, (key) =>
        signer.signModel(key, window),
      );
      return { success: true, urls };
    },
  );
}
