/**
 * The domain's error set. Anything thrown as an AppError reaches the client as the API's error body
 * `{ success: false, error, message, ...extra }` (docs/api.md, Wire conventions); anything else is a 500 `internal`.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const invalidRequest = (message: string, details?: unknown) =>
  new AppError(400, 'invalid_request', message, details === undefined ? {} : { details });
export const unauthorized = (code: string, message: string) => new AppError(401, code, message);
export const forbidden = (message = 'You do not have permission to do this.') =>
  new AppError(403, 'forbidden', message);
export const notFound = (what = 'Resource') => new AppError(404, 'not_found', `${what} not found.`);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const quotaExceeded = (limit: number) =>
  new AppError(403, 'quota_exceeded', `The plan's 3D model limit (${limit}) is reached.`, { limit });
/** A 429 with `retryAfter` and `Retry-After`; `headers` adds more, such as the RateLimit headers. */
export const tooManyRequests = (
  retryAfterSeconds: number,
  message = 'Too many requests, try again later.',
  headers: Record<string, string> = {},
) =>
  new AppError(
    429,
    'rate_limited',
    message,
    { retryAfter: retryAfterSeconds },
    { ...headers, 'retry-after': String(retryAfterSeconds) },
  );
/** A 503; with `retryAfterSeconds` (a server at capacity rather than down) also `retryAfter` and `Retry-After`. */
export const serviceUnavailable = (message: string, retryAfterSeconds?: number) =>
  retryAfterSeconds === undefined
    ? new AppError(503, 'unavailable', message)
    : new AppError(
        503,
        'unavailable',
        message,
        { retryAfter: retryAfterSeconds },
        { 'retry-after': String(retryAfterSeconds) },
      );
