import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../domain/errors.js';
import { ModelFileError } from '../domain/models/model-file-error.js';
import { isDependencyDown } from '../platform/dependency-errors.js';

interface ErrorBody {
  success: false;
  error: string;
  message: string;
  [extra: string]: unknown;
}

/** Fastify's own error codes that are the client's fault, mapped to the API's codes (docs/api.md, Wire conventions). */
const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The request body is too large.' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'too_large', message: 'The file is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', message: 'Unsupported Content-Type.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_request', message: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_request', message: 'The body is not valid JSON.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Send the file as multipart/form-data.',
  },
  FST_PARTS_LIMIT: {
    status: 400,
    code: 'invalid_request',
    message: 'Too many parts in the upload: send the field file and, optionally, name.',
  },
  FST_FILES_LIMIT: { status: 400, code: 'invalid_request', message: 'Send one file per upload.' },
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

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/**
 * One entry per field. A union of literals (renderQuality, say) fails once per member plus once
 * for the union: that becomes one "must be one of a, b, c"; other unions keep their first issue.
 */
function validationDetails(where: string, issues: ValidationIssue[]): Array<{ field: string; message: string }> {
  const byField = new Map<string, ValidationIssue[]>();
  for (const issue of issues) {
    const missing = (issue.params as { missingProperty?: string })?.missingProperty;
    const field = [where, ...issue.instancePath.split('/').filter(Boolean), ...(missing ? [missing] : [])].join('.');
    byField.set(field, [...(byField.get(field) ?? []), issue]);
  }
  return [...byField].map(([field, group]) => {
    const allowed = group
      .filter((issue) => issue.keyword === 'const')
      .map((issue) => JSON.stringify((issue.params as { allowedValue?: unknown }).allowedValue));
    if (allowed.length > 0) return { field, message: `must be one of ${allowed.join(', ')}` };
    // A union of types (a vector as [x,y,z] or {x,y,z}): name them all, not just the first.
    const members = group.filter((issue) => issue.keyword !== 'anyOf');
    if (members.length > 1 && members.every((issue) => issue.keyword === 'type')) {
      return {
        field,
        message: `must be ${members.map((issue) => (issue.params as { type?: string }).type).join(' or ')}`,
      };
    }
    const specific = members[0] ?? group[0];
    // A rule on an object's keys (propertyNames) is about a key, not the object's value.
    const aboutKeys = group.some((issue) => issue.keyword === 'propertyNames');
    return { field, message: `${aboutKeys ? 'keys ' : ''}${specific.message ?? 'is invalid'}` };
  });
}

function toBody(error: FastifyError): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      body: { success: false, error: error.code, message: error.message, ...error.extra },
      headers: error.headers,
    };
  }
  if (error instanceof ModelFileError) {
    const body: ErrorBody = { success: false, error: error.code, message: error.message };
    if (error.details !== undefined) body.details = error.details;
    return { status: error.statusCode, body, headers: {} };
  }
  if (error.validation) {
    const details = validationDetails(error.validationContext ?? 'body', error.validation);
    const first = details[0];
    return {
      status: 400,
      body: { success: false, error: 'invalid_request', message: `${first.field} ${first.message}`, details },
      headers: {},
    };
  }
  const dataError = CLIENT_DATA_ERRORS[postgresCode(error) ?? ''];
  if (dataError)
    return { status: 400, body: { success: false, error: 'invalid_request', message: dataError }, headers: {} };
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (known)
    return { status: known.status, body: { success: false, error: known.code, message: known.message }, headers: {} };
  if (error.statusCode === 429) {
    return { status: 429, body: { success: false, error: 'rate_limited', message: error.message }, headers: {} };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // A 416 from the file server says how long the file is (RFC 9110), so a client can retry.
    const contentRange = (error as { headers?: Record<string, unknown> }).headers?.['Content-Range'];
    const headers: Record<string, string> = typeof contentRange === 'string' ? { 'content-range': contentRange } : {};
    return {
      status: error.statusCode,
      body: { success: false, error: 'invalid_request', message: error.message },
      headers,
    };
  }
  if (isDependencyDown(error)) {
    return {
      status: 503,
      body: {
        success: false,
        error: 'unavailable',
        message: 'A service this API depends on is unavailable; retry shortly.',
        retryAfter: 5,
      },
      headers: { 'retry-after': '5' },
    };
  }
  return {
    status: 500,
    body: { success: false, error: 'internal', message: 'Something went wrong on our side.' },
    headers: {},
  };
}

/** The one error handler: every failure leaves as the API's error body; a 500 never leaks internals. */
export default fp(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body, headers } = toBody(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.error, status }, body.message);
    return reply.code(status).headers(headers).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      success: false,
      error: 'not_found',
      message: `Route ${request.method} ${request.url.split('?')[0]} not found.`,
    }),
  );
});
