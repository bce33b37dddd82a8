import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { LRUCache } from 'lru-cache';
import type { PublicShareOptions, ShareAccess } from '../../core/services/public-share/share-access.js';
import { createCapacityLimit } from '../../core/platform/capacity-limit.js';
import { createSubmissionRepository } from '../../core/repositories/submissions.js';
import { ShareParams, UnavailableBody } from '../../schemas/shares.js';
import {
  IDEMPOTENCY_WINDOW_MS,
  MAX_OBJECT_JSON_BYTES,
  MAX_SCREENSHOT_BYTES,
  SCREENSHOT_TYPES,
  SUBMIT_BODY_LIMIT,
  SubmitBody,
  SubmitHeaders,
  SubmitReply,
  type ScreenshotType,
} from '../../schemas/submissions.js';
import { errors } from '../../schemas/common.js';
import { invalidRequest, notFound, serviceUnavailable } from '../../core/domain/errors.js';
import { decompressScene } from '../../core/domain/scene.js';
import { MAX_SCREENSHOT_PIXELS, MAX_SCREENSHOT_SIDE, imageDimensions, isScreenshotSizeAllowed } from '../../core/domain/image-dimensions.js';

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
export const SMALL_SUBMIT_BYTES = 1024 * 1024;
/** Form fields kept per project revision, by the size of their JSON; larger ones are not kept. */
const FORM_FIELDS_CACHE_BYTES = 16 * 1024 * 1024;
const FORM_FIELDS_ENTRY_BYTES = 1024 * 1024;

const isScreenshotType = (type: string): type is ScreenshotType => (SCREENSHOT_TYPES as readonly string[]).includes(type);

const DATA_URL = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[^;,]*)*);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const fieldError = (field: string, message: string) => invalidRequest(`${field} ${message}`, [{ field, message }]);

/**
 * Decodes one screenshot data URL, checking type, size, that the bytes are what they claim and
 * that the pixel size is within MAX_SCREENSHOT_SIDE and MAX_SCREENSHOT_PIXELS: decoders allocate
 * by pixels, not file size (a 249 KB PNG of 8000 × 8000 costs the PDF step 1 GB).
 */
export function decodeScreenshot(value: string, index: number): { mimeType: ScreenshotType; data: Buffer } {
  const field = `body.screenshots.${index}`;
  const match = DATA_URL.exec(value);
  if (!match) throw fieldError(field, 'must be a base64 data URL (data:image/png;base64,...).');
  const mimeType = match[1].toLowerCase();
  if (!isScreenshotType(mimeType)) throw fieldError(field, `has type ${mimeType}; allowed are image/png, image/jpeg and image/webp.`);
  const payload = value.slice(match[0].length);
  // Checked before decoding, so an oversized image costs no allocation.
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  if ((payload.length / 4) * 3 - padding > MAX_SCREENSHOT_BYTES) throw fieldError(field, 'is larger than 5 MB (5,000,000 bytes).');
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) throw fieldError(field, 'is not valid base64.');
  const data = Buffer.from(payload, 'base64');
  if (data.length === 0) throw fieldError(field, 'is empty.');
  // The header check is also the type check: null unless the bytes are a readable image of that type.
  const size = imageDimensions(data, mimeType);
  if (!size) throw fieldError(field, `does not contain ${mimeType} data with a readable header.`);
  if (!isScreenshotSizeAllowed(size)) {
    throw fieldError(field, `is ${size.width} × ${size.height} pixels; at most ${MAX_SCREENSHOT_SIDE} per side and ${MAX_SCREENSHOT_PIXELS} in all.`);
  }
  return { mimeType, data };
}

/** A required answer that is missing: absent, null, blank, an empty list, or an unticked checkbox. */
function isEmptyAnswer(value: unknown, type: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (value === false) return type === 'checkbox';
  return false;
}

/** Ids of the project's required form fields (contract section 3's minimal shape) that the answers leave empty. */
export function missingRequiredFields(formFields: unknown, formData: Record<string, unknown>): string[] {
  if (!Array.isArray(formFields)) return [];
  const missing: string[] = [];
  for (const field of formFields) {
    if (!field || typeof field !== 'object') continue;
    const { id, required, type } = field as { id?: unknown; required?: unknown; type?: unknown };
    if (required !== true || (typeof id !== 'string' && typeof id !== 'number')) continue;
    if (isEmptyAnswer(formData[String(id)], type)) missing.push(String(id));
  }
  return missing;
}

function checkJsonSize(field: string, value: unknown) {
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_OBJECT_JSON_BYTES) throw fieldError(field, `is larger than ${MAX_OBJECT_JSON_BYTES / 1024} KB as JSON.`);
}

/**
 * `POST /share/:projectId/:token/submit` (contract section 6). The checks run in the contract's
 * order: public key (the context's hook), rate limit (onRequest), the share checks (preParsing:
 * a wrong token, password or host is refused before the body is read, whatever its size), then
 * the body. The answer is sent only once the request, its screenshots and its outbox rows are
 * committed; enqueuing after that is best effort, and the worker's relay picks up whatever it
 * missed.
 */
export default async function submitRoutes(fastify: FastifyInstance, { shares, authorize }: PublicShareOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db } = app.deps;
  const submissions = createSubmissionRepository(db);
  const inProgress = createCapacityLimit(SUBMIT_BYTES_IN_PROGRESS);
  // The project's form fields per revision, so a submit does not decompress the whole scene.
  const formFieldsByRevision = new LRUCache<string, { fields: unknown; size: number }>({
    maxSize: FORM_FIELDS_CACHE_BYTES,
    maxEntrySize: FORM_FIELDS_ENTRY_BYTES,
    sizeCalculation: (entry) => entry.size,
  });

  async function formFieldsOf(access: ShareAccess): Promise<unknown> {
    const key = `${access.projectId}|${access.projectRevision}`;
    const cached = formFieldsByRevision.get(key);
    if (cached) return cached.fields;
    const stored = await shares.scene(access.workspaceId, access.projectId);
    if (!stored) throw notFound('Share');
    const fields = decompressScene(stored.scene).sceneData?.formFields;
    const size = Math.max(1, Buffer.byteLength(JSON.stringify(fields ?? null)));
    formFieldsByRevision.set(`${access.projectId}|${stored.revision}`, { fields, size });
    return fields;
  }

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
          request.shareAccess = await authorize(request, request.params as { projectId: string; token: string });
          if (!(withinLimit && declared <= SMALL_SUBMIT_BYTES)) {
            const release = inProgress.tryAcquire(withinLimit ? declared : SUBMIT_BODY_LIMIT);
            if (!release) throw serviceUnavailable('Too many submissions are being received right now; retry in a second.', 1);
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
          'Same headers and checks as the read, in the same order (a password-protected share needs X-Share-Password here too), all before the body is read; then the body. ' +
          'The answer comes once the request is stored with its pending background work; screenshots, PDF, e-mail and webhook events follow ' +
          `(see GET /projects/{id}/requests/{requestId} for their state). Rate limit: ${config.rateLimits.submit.max} per ${config.rateLimits.submit.timeWindow / 1000} s per client IP. ` +
          'Optional Idempotency-Key header (1 to 200 characters): the same key for the same project within 24 hours answers the first requestId and stores nothing new. ' +
          `413 payload_too_large past 36 MiB. A server receives at most ${MAX_SUBMITS_IN_PROGRESS} submits of the largest size at once (counted by Content-Length; a submit without one counts as the largest): past that, 503 unavailable with Retry-After: 1.`,
        security: [{ publicKey: [] }],
        params: ShareParams,
        headers: SubmitHeaders,
        body: SubmitBody,
        response: { 200: SubmitReply, ...errors(400, 401, 403, 404, 413, 429, 503), 402: UnavailableBody },
      },
    },
    async (request) => {
      const access = request.shareAccess!;
      const body = request.body;
      // Validated by SubmitHeaders (1 to 200 characters).
      const idempotencyKey = request.headers['idempotency-key'] ?? null;
      if (idempotencyKey) {
        const existing = await submissions.findByIdempotencyKey(access.projectId, idempotencyKey, IDEMPOTENCY_WINDOW_MS);
        if (existing) return { success: true as const, requestId: existing };
      }

      const formData = body.formData as Record<string, unknown>;
      const selectedOptions = (body.selectedOptions ?? {}) as Record<string, unknown>;
      checkJsonSize('body.formData', formData);
      checkJsonSize('body.selectedOptions', selectedOptions);
      const screenshots = (body.screenshots ?? []).map(decodeScreenshot);

      const missing = missingRequiredFields(await formFieldsOf(access), formData);
      if (missing.length > 0) {
        throw invalidRequest(
          `Required form fields are missing: ${missing.join(', ')}.`,
          missing.map((id) => ({ field: `body.formData.${id}`, message: 'is required' })),
        );
      }

      const result = await submissions.create(
        {
          projectId: access.projectId,
          workspaceId: access.workspaceId,
          formData,
          selectedOptions,
          configurationSummary: body.configurationSummary ?? '',
          idempotencyKey,
          clientIp: request.ip,
          screenshots,
        },
        IDEMPOTENCY_WINDOW_MS,
      );
      // Fire and forget: the request is safe in Postgres; Redis must not delay or fail the answer.
      app.deps.outbox.nudge(result.outbox, request.log);
      return { success: true as const, requestId: result.id };
    },
  );
}
