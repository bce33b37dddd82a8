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
 * Largest submits in progress per process, from the share checks to the answer: each may hold a
 * 36 MiB body, its parsed copy and the decoded screenshots (~100 MB). The ceiling is on bytes:
 * a submit with screenshots counts its declared Content-Length (the whole limit when it sends
 * none). Past it, 503 with Retry-After: 1.
 */
export const MAX_SUBMITS_IN_PROGRESS = 8;
const SUBMIT_BYTES_IN_PROGRESS = MAX_SUBMITS_IN_PROGRESS * SUBMIT_BODY_LIMIT;
/**
 * A submit that declares at most this much is not counted at all: large or stalled uploads
 * cannot keep ordinary form submits out (the rate limit bounds those per client).
 */
const SMALL_SUBMIT_BYTES = 1024 * 1024;

/**
 * `POST /share/:projectId/:token/submit` (contract section 6). The checks run in the contract's
 * order: public key (the context's hook), rate limit (onRequest), the share checks (preParsing:
 * a wrong token, password or host is refused before the body is read, whatever its size), then
 * the body, handed to the submissions service.
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
          // Refused before the body. From a trusted proxy (the BFF) a body within the limit is
          // read and dropped by Node after the answer, so the proxy finishes sending and relays
          // the answer. From anyone else, or past the limit, or of unknown length, the
          // connection closes instead: a stranger's refused upload costs no bandwidth.
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
