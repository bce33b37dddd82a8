import { DownloadTooLargeError, MAX_DOWNLOAD_BYTES } from '../../platform/libraries/index.js';
import { SsrfError } from '../../platform/ssrf-guard.js';
import { TimeoutError } from '../../platform/deadline.js';
import { AppError } from '../../domain/errors.js';
import { LibraryError } from '../../domain/libraries/library-errors.js';
import { ModelFileError } from '../../domain/models/model-file-error.js';

/** A failure an import run names itself: the job ends `failed` with this code and message. */
export class ImportFailure extends Error {
  override name = 'ImportFailure';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const MB = 1_000_000;

/** The job error of anything a run throws. */
export function failureOf(
  error: unknown,
  item: { name: string } | null,
  provider: string,
): { code: string; message: string } {
  if (error instanceof ImportFailure) return { code: error.code, message: error.message };
  if (error instanceof ModelFileError) return { code: error.code, message: error.message };
  if (error instanceof DownloadTooLargeError)
    return { code: 'too_large', message: `The download is larger than ${MAX_DOWNLOAD_BYTES / MB} MB.` };
  if (error instanceof LibraryError) {
    if (error.kind === 'auth')
      return { code: 'auth_required', message: `${provider} refused the account's token; connect the account again.` };
    if (error.kind === 'not_found')
      return {
        code: 'unavailable',
        message: `${provider} no longer offers ${item ? `"${item.name}"` : 'this model'} for download.`,
      };
    return { code: 'unavailable', message: `${provider} is not available: ${error.message}` };
  }
  if (error instanceof SsrfError)
    return { code: 'unavailable', message: 'The library gave a download address that is not allowed.' };
  if (error instanceof TimeoutError || (error as Error)?.name === 'TimeoutError')
    return { code: 'unavailable', message: 'The download took too long.' };
  if (error instanceof AppError && error.code === 'quota_exceeded')
    return { code: 'quota_exceeded', message: error.message };
  return {
    code: 'unavailable',
    message: `The model could not be downloaded (${(error as Error)?.message ?? 'unknown error'}).`,
  };
}

/** Whether a failure is one nobody foresaw (worth a warning in the log), not the library's or the model's doing. */
export function isUnexpectedFailure(error: unknown, failure: { code: string }): boolean {
  return (
    failure.code === 'unavailable' &&
    !(error instanceof ImportFailure) &&
    !(error instanceof LibraryError) &&
    !(error instanceof TimeoutError)
  );
}
