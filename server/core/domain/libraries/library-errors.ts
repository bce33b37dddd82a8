import { AppError } from '../errors.js';

/**
 * The online libraries' errors (docs/libraries.md, Imports). A library's own
 * authentication failure is never a 401 to our client: 409 auth_required.
 */
export const licenseBlocked = (message: string) => new AppError(403, 'license_blocked', message);
export const licenseAckRequired = () =>
  new AppError(
    409,
    'license_ack_required',
    'This licence has conditions (attribution): send acknowledgeLicense: true to import the model.',
  );
export const authRequired = (message = 'Connect your library_b account before importing from it.') =>
  new AppError(409, 'auth_required', message);
export const importTooLarge = (limitBytes: number) =>
  new AppError(413, 'too_large', `The model's download is larger than ${limitBytes / 1_000_000} MB.`, {
    limit: limitBytes,
  });
export const notImportable = (message: string) => new AppError(422, 'not_importable', message);
export const tooManyImports = (limit: number) =>
  new AppError(
    429,
    'too_many_imports',
    `${limit} imports already run in this workspace; wait for one to finish.`,
    { retryAfter: 10, limit },
    { 'retry-after': '10' },
  );
export const providerNotConfigured = (provider: string) =>
  new AppError(503, 'provider_not_configured', `Imports from ${provider} are not set up on this platform.`);
/** A library that did not answer usably (down, timed out, throttled us): 503 unavailable. */
export const libraryUnavailable = (provider: string, detail: string) =>
  new AppError(
    503,
    'unavailable',
    `${provider} is not available right now (${detail}).`,
    { retryAfter: 30 },
    { 'retry-after': '30' },
  );

/**
 * What an adapter throws when its library refused or failed a call; mapped to the errors above
 * by the services (auth → 409 auth_required, not_found → 404, the rest → 503 / job `unavailable`).
 */
export class LibraryError extends Error {
  override name = 'LibraryError';
  constructor(
    readonly kind: 'auth' | 'not_found' | 'rate_limited' | 'unavailable' | 'bad_request',
    readonly provider: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
