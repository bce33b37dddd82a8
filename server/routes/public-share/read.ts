import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { shareRequestOf, type PublicShareRouteOptions } from './share-request.js';
import { PublicProjectReply, PublicReadHeaders, ShareParams, UnavailableBody } from '../../schemas/shares.js';
import { errors } from '../../schemas/common.js';
import {
  MAX_PASSWORD_BACKLOG,
  PASSWORD_ATTEMPTS,
  PASSWORD_WINDOW_MS,
} from '../../core/services/public-share/password-check.js';
import { per } from '../../schemas/rate-text.js';

/**
 * `GET /share/:projectId/:token`: the public project payload (docs/api.md, Public read), a 304 or the payload, both
 * from memory while the share is unchanged.
 */
export default async function readRoutes(app: FastifyInstance, { readRateLimit }: PublicShareRouteOptions) {
  const { config, services } = app.deps;
  const { publicShare } = services;

  // Not the TypeBox provider: the 200 body is sent pre-serialised and 304 has none; the
  // response schemas document the shapes.
  app.get<{ Params: Static<typeof ShareParams> }>(
    '/share/:projectId/:token',
    {
      onRequest: readRateLimit,
      schema: {
        tags: ['public share'],
        summary: 'Read a shared project (public).',
        description:
          'Needs `apikey` and `Authorization: Bearer` with the public key. ' +
          'Checks, in order: public key (401 invalid_api_key), ' +
          `rate limit (429; RATE_LIMIT_SHARE_READ: ${per(config.rateLimits.shareRead)} per client, ` +
          'one budget with model-urls), ' +
          'project/token/enabled (one 404 not_found), owner billing (402), embed host from Origin, ' +
          'else Referer (403 domain_not_allowed; ' +
          'a request with neither, such as a headless or native client, is allowed), ' +
          'password in X-Share-Password (401 password_required / ' +
          'invalid_password; the header carries the password as UTF-8; ' +
          `429 for any password after ${PASSWORD_ATTEMPTS} wrong tries in ${PASSWORD_WINDOW_MS / 60_000} minutes ` +
          'per client (IPv4 address, IPv6 /64) and project; 503 unavailable with Retry-After: 1 ' +
          `when the server already has ${MAX_PASSWORD_BACKLOG} password checks running or queued), ` +
          'then If-None-Match (304). ' +
          `Models beyond the first ${config.signedModelLimit} (SIGNED_MODEL_LIMIT) have no url: ` +
          'fetch them with POST .../model-urls.',
        security: [{ publicKey: [] }],
        params: ShareParams,
        headers: PublicReadHeaders,
        response: {
          200: PublicProjectReply,
          304: Type.Null({ description: 'Not modified: keep the last payload.' }),
          ...errors(401, 403, 404, 429, 503),
          402: UnavailableBody,
        },
      },
    },
    async (request, reply) => {
      const access = await publicShare.authorize(shareRequestOf(request));
      const read = await publicShare.read(access, request.headers['if-none-match']);
      reply
        .header('cache-control', read.cacheControl)
        .header('content-security-policy', read.contentSecurityPolicy)
        .header('etag', read.etag);
      if (!read.body) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(read.body);
    },
  );
}
