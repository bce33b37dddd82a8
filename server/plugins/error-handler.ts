import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../core/errors.js';
import { ModelFileError } from '../core/models/model-file-error.js';

interface ErrorBody {
  success: false;
  error: string;
  message: string;
  [extra: string]: unknown;
}

/** Fastify's own error codes that are the client's fault, mapped to the contract's codes. */
const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The request body is too large.' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'too_large', message: 'The file is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', message: 'Unsupported Content-Type.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_request', message: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_request', message: 'The body is not valid JSON.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, code: 'unsupported_media_type', message: 'Send the file as multipart/form-data.' },
  FST_PARTS_LIMIT: { status: 413, code: 'payload_too_large', message: 'Too many parts in the upload.' },
  FST_FILES_LIMIT: { status: 413, code: 'payload_too_large', message: 'Send one file per upload.' },
};

/**
 * Postgres data exceptions that only client input can cause (NUL or invalid characters, text
 * too long for a column), reached through drizzle's wrapper (`cause`) or raw pg.
 */
const CLIENT_DATA_ERRORS: Record<string, string> = {
  '22P05': 'Text contains a character that cannot be stored (such as \\u0000).',
  '22021': 'Text contains an invalid character.',
  '22001': 'A text value is too long.',
  '54001': 'The request is too complex.',
};

function postgresCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

function toBody(error: FastifyError): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) {
    return { status: error.statusCode, body: { success: false, error: error.code, message: error.message, ...error.extra }, headers: error.headers };
  }
  if (error instanceof ModelFileError) {
    const body: ErrorBody = { success: false, error: error.code, message: error.message };
    if (error.details !== undefined) body.details = error.details;
    return { status: error.statusCode, body, headers: {} };
  }
  if (error.validation) {
    const where = error.validationContext ?? 'body';
    const details = error.validation.map((issue) => {
      const missing = (issue.params as { missingProperty?: string })?.missingProperty;
      const pointer = [where, ...issue.instancePath.split('/').filter(Boolean), ...(missing ? [missing] : [])].join('.');
      return { field: pointer, message: issue.message ?? 'is invalid' };
    });
    const first = details[0];
    return { status: 400, body: { success: false, error: 'invalid_request', message: `${first.field} ${first.message}`, details }, headers: {} };
  }
  const dataError = CLIENT_DATA_ERRORS[postgresCode(error) ?? ''];
  if (dataError) return { status: 400, body: { success: false, error: 'invalid_request', message: dataError }, headers: {} };
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (known) return { status: known.status, body: { success: false, error: known.code, message: known.message }, headers: {} };
  if (error.statusCode === 429) {
    return { status: 429, body: { success: false, error: 'rate_limited', message: error.message }, headers: {} };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { success: false, error: 'invalid_request', message: error.message }, headers: {} };
  }
  return { status: 500, body: { success: false, error: 'internal', message: 'Something went wrong on our side.' }, headers: {} };
}

/** The one error handler: every failure leaves as the contract's error body; a 500 never leaks internals. */
export default fp(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body, headers } = toBody(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.error, status }, body.message);
    return reply.code(status).headers(headers).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ success: false, error: 'not_found', message: `Route ${request.method} ${request.url.split('?')[0]} not found.` }),
  );
});
