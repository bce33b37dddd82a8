import { AppError } from '../../domain/errors.js';
import { SsrfError, resolvePublicAddress, type LookupAll } from '../../platform/ssrf-guard.js';

/** Longest webhook URL accepted. */
const MAX_URL_LENGTH = 2048;

export interface TargetUrlOptions {
  /** WEBHOOK_ALLOW_INSECURE: http:// and private addresses allowed. */
  allowInsecure: boolean;
  /** The resolver (tests). */
  lookup?: LookupAll;
}

const invalidUrl = (message: string) =>
  new AppError(400, 'invalid_url', message, { details: [{ field: 'body.url', message }] });

/**
 * The registration check of a webhook URL (docs/api.md, Webhooks); answers it normalised. A name that does not
 * resolve yet is accepted: every delivery checks again on the address it connects to.
 */
export async function checkTargetUrl(raw: string, options: TargetUrlOptions): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl('url must be an absolute https:// URL.');
  }
  if (raw.length > MAX_URL_LENGTH) throw invalidUrl(`url must be at most ${MAX_URL_LENGTH} characters.`);
  const schemes = options.allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw invalidUrl('url must use https://.');
  if (url.username || url.password) throw invalidUrl('url must not contain credentials; sign with the secret instead.');
  if (url.hostname === '') throw invalidUrl('url must name a host.');
  if (!options.allowInsecure) {
    try {
      await resolvePublicAddress(url.hostname, { lookup: options.lookup, timeoutMs: 3000 });
    } catch (error) {
      if (error instanceof SsrfError && error.code === 'ssrf_blocked') {
        throw invalidUrl('url must not point to a loopback, private, link-local or reserved address.');
      }
      // Not resolvable right now: the deliveries will say so.
    }
  }
  return url.toString();
}
