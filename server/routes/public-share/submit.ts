import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { shareRequestOf } from './share-request.js';
import { createCapacityLimit } from '../../core/platform/capacity-limit.js';
import { ShareParams, UnavailableBody } from '../../schemas/shares.js';
import { SUBMIT_BODY_LIMIT, SubmitBody, SubmitHeaders, SubmitReply } from '../../schemas/submissions.js';
import { errors } from '../../schemas/common.js';
import { per } from '../../schemas/rate-text.js';
import { serviceUnavailable } from '../../core/domain/errors.js';

/**
 * Submits in progress per process: one with screenshots may hold ~100 MB, so the ceiling counts its declared
 * bytes (the whole limit when none is declared); past it, 503 with Retry-After: 1.
 */
export const MAX_SUBMITS_IN_PROGRESS = 8;
const SUBMIT_BYTES_IN_PROGRESS = MAX_SUBMITS_IN_PROGRESS * SUBMIT_BODY_LIMIT;
/**
 * A submit that declares at most this much is not counted at all: large or stalled uploads
 * cannot keep ordinary form submits out (the rate limit bounds those per client).
 */
const SMALL_SUBMIT_BYTES = 1024 * 1024;

/**
 * `POST /share/:projectId/:token/submit` (docs/api.md, Submit). The share checks run in preParsing, so a wrong
 * token, password or host is refused before a body of any size is read.
 */
export default async function submitRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, services } = app.deps;
  const inProgress = createCapacityLimit(SUBMIT_BYTES_IN_PROGRESS);

  app.post(
    '/share/:projectId/:token/submit',
    {
      bodyLimit: SUBMIT_BODY_LIMIT,
      config: { rateLimit: { ...config.rateLimits.submit, hook: 'onRequest' } },
      // request.params is set at routing: the checks need nothing from the body.
      preParsing: async (request, reply) => {
        // NaN when absent (a chunked body): such a body counts as the largest.
        const declared = Number(request.headers['content-length']);
        const withinLimit = declared >= 0 && declared <= SUBMIT_BODY_LIMIT;
        try {
          request.shareAccess = await services.publicShare.authorize(shareRequestOf(request));
          if (!(withinLimit && declared <= SMALL_SUBMIT_BYTES)) {
            const release = inProgress.tryAcquire(withinLimit ? declared : SUBMIT_BODY_LIMIT);
            if (!release)
              throw serviceUnavailable('Too many submissions are being received right now; retry in a second.', 1);
            // 'close' follows the answer, and also a client that went away mid-upload.
            reply.raw.once('close', release);
          }
        } catch (error) {
          // The BFF may finish sending a body within the limit, so it can relay the answer; anyone else's
          // refused upload closes the connection and costs no bandwidth.
          const fromTrustedProxy = (request.ips?.length ?? 0) > 1;
          if (!withinLimit || !fromTrustedProxy) reply.header('connection', 'close');
          throw error;
        }
      },
      schema: {
        tags: ['public share'],
        summary: 'Submit the form of a shared project (public).',
        description:
          'Same headers and checks as the read, in the same order (a password-protected share needs ' +
          'X-Share-Password here too), all before the body is read; then the body. ' +
          'The server prices the request itself from selectedOptions and the number fields of formData ' +
          "(stored as the request's price; `price` in the body is kept as what the visitor saw, never trusted, " +
          'and a different figure never refuses the request). ' +
          'The answer comes once the request is stored with its pending background work; screenshots, PDF, ' +
          'e-mail and webhook events follow (see GET /projects/{id}/requests/{requestId} for their state). ' +
          `Rate limit (RATE_LIMIT_SUBMIT): ${per(config.rateLimits.submit)} per client IP. ` +
          'Optional Idempotency-Key header (1 to 200 characters): the same key for the same project within ' +
          '24 hours answers the first requestId and stores nothing new. ' +
          `413 payload_too_large past ${SUBMIT_BODY_LIMIT / 1024 / 1024} MiB. A server receives at most ` +
          `${MAX_SUBMITS_IN_PROGRESS} submits of the largest size at once (counted by Content-Length; a submit ` +
          'without one counts as the largest): past that, 503 unavailable with Retry-After: 1.',
        security: [{ publicKey: [] }],
        params: ShareParams,
        headers: SubmitHeaders,
        body: SubmitBody,
        response: { 200: SubmitReply, ...errors(400, 401, 403, 404, 413, 429, 503), 402: UnavailableBody },
      },
    },
    async (request) => {
      const { body } = request;
      const requestId = await services.submissions.submit(request.shareAccess!, {
        formData: body.formData as Record<string, unknown>,
        selectedOptions: (body.selectedOptions ?? {}) as Record<string, unknown>,
        configurationSummary: body.configurationSummary ?? '',
        screenshots: body.screenshots ?? [],
        clientPrice: body.price ?? null,
        // Validated by SubmitHeaders (1 to 200 characters).
        idempotencyKey: request.headers['idempotency-key'] ?? null,
        clientIp: request.ip,
      });
      return { success: true as const, requestId };
    },
  );
}
