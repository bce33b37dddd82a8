import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed `/files/<key>?exp=<unix>&sig=<hmac>` URLs. Model URLs are issued per UTC day so reads within it get
 * byte-identical URLs, which keeps ETags and browser caches valid.
 */
export const SIGNING_WINDOW_SECONDS = 24 * 3600;
export const MODEL_URL_LIFETIME_SECONDS = 365 * 24 * 3600;

export function signingWindow(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000 / SIGNING_WINDOW_SECONDS);
}

function signature(secret: string, key: string, exp: number): string {
  return createHmac('sha256', secret).update(`${key}\n${exp}`).digest('base64url');
}

export function createUrlSigner(secret: string, publicBaseUrl: string) {
  const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');
  return {
    /** A URL valid until `exp` (unix seconds). */
    sign(key: string, exp: number): string {
      return `${publicBaseUrl}/files/${encodeKey(key)}?exp=${exp}&sig=${signature(secret, key, exp)}`;
    },
    /** A model URL valid at least one year, stable inside the current signing window. */
    signModel(key: string, window = signingWindow()): string {
      const exp = (window + 1) * SIGNING_WINDOW_SECONDS + MODEL_URL_LIFETIME_SECONDS;
      return this.sign(key, exp);
    },
    /** A short-lived URL for owner reads (screenshots, PDFs). */
    signFor(key: string, seconds: number): string {
      return this.sign(key, Math.floor(Date.now() / 1000) + seconds);
    },
    verify(key: string, exp: number, sig: string, nowMs = Date.now()): boolean {
      if (!Number.isSafeInteger(exp) || exp * 1000 < nowMs) return false;
      const expected = Buffer.from(signature(secret, key, exp));
      const given = Buffer.from(sig);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
