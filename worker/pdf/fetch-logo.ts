import { guardedLookup, resolvePublicAddress } from '#core/platform/ssrf-guard.js';

/**
 * The merchant's logo for the request PDF, from `branding.logoUrl`: any editor picks that URL, so it goes
 * through the SSRF guard (every hop, IP literals included), and a slow, huge or non-image answer only
 * means a PDF without a logo, never a failed or late one.
 */
export interface FetchLogoOptions {
  /** The whole fetch, redirects and body included, must finish within this (default 5000 ms). */
  timeoutMs?: number;
  /** A larger logo is not read (default 2 MB). */
  maxBytes?: number;
  /** Redirect hops followed (default 3). */
  maxRedirects?: number;
  /** http:// and private addresses allowed: development and tests only (default false). */
  allowInsecure?: boolean;
}

export const FETCH_LOGO_DEFAULTS = {
  timeoutMs: 5000,
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 3,
  allowInsecure: false,
} as const;

/** Throws unless the URL may be fetched: https (or http when insecure), and a public address. */
async function checkTarget(url: URL, allowInsecure: boolean) {
  const schemes = allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new Error(`${url.protocol} logo URLs are not fetched`);
  if (allowInsecure) return;
  // IP literals never reach the agent's lookup: judged here (a name is judged at connect time).
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (/^[\d.]+$/.test(host) || host.includes(':')) await resolvePublicAddress(host);
}

/** Stops reading a body; the abort it reports is expected, not an error. */
function drop(body: NodeJS.ReadableStream & { destroy(): void }) {
  body.on('error', () => {});
  body.destroy();
}

/** The logo's bytes when they arrive in time as an image within the limits; null otherwise (never throws). */
export async function fetchLogo(rawUrl: string, options: FetchLogoOptions = {}): Promise<Buffer | null> {
  const { timeoutMs, maxBytes, maxRedirects, allowInsecure } = { ...FETCH_LOGO_DEFAULTS, ...options };
  const signal = AbortSignal.timeout(timeoutMs);
  const undici = await import('undici');
  const agent = new undici.Agent({
    connect: { timeout: timeoutMs, ...(allowInsecure ? {} : { lookup: guardedLookup }) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  try {
    let url = new URL(rawUrl);
    for (let hop = 0; ; hop++) {
      await checkTarget(url, allowInsecure);
      const response = await undici.request(url, {
        dispatcher: agent,
        signal,
        headers: { accept: 'image/*' },
      });
      const { location } = response.headers;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        drop(response.body);
        if (hop >= maxRedirects) return null;
        url = new URL(location, url);
        continue;
      }
      const type = String(response.headers['content-type'] ?? '');
      const length = Number(response.headers['content-length'] ?? 0);
      if (response.statusCode !== 200 || !/^image\//i.test(type) || length > maxBytes) {
        drop(response.body);
        return null;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          drop(response.body);
          return null;
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    }
  } catch {
    return null;
  } finally {
    // Not awaited: a hung server must not hold the PDF; destroy drops its socket at once.
    void agent.destroy().catch(() => {});
  }
}
