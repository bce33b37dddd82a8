import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Dispatcher } from 'undici';
import { SsrfError, guardedLookup, resolvePublicAddress } from '../ssrf-guard.js';
import { lazyUndiciAgent } from '../lazy-undici-agent.js';
import { LibraryError } from '../../domain/libraries/library-errors.js';

/**
 * The one HTTP client of the library adapters and downloads: the SSRF guard on every connection and every redirect hop
 * (followed by hand for that reason), no environment proxy, the caller's deadline. Adapters own URLs and answers.
 */
export interface LibraryHttpOptions {
  /** LIBRARY_ALLOW_PRIVATE: private and loopback addresses allowed (development and tests only). */
  allowPrivate: boolean;
  /** Poly Haven's ToS asks for a User-Agent naming the app. */
  userAgent?: string;
  /** Connection set-up limit (default 10 s). */
  connectTimeoutMs?: number;
}

export interface LibraryRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** Redirect hops followed (default 5). */
  maxRedirects?: number;
}

export interface JsonAnswer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export class DownloadTooLargeError extends Error {
  override name = 'DownloadTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`the download is larger than ${limitBytes} bytes`);
  }
}

export interface DownloadOptions {
  headers?: Record<string, string>;
  signal: AbortSignal;
  /** Bytes allowed; past them the transfer stops at once (DownloadTooLargeError). */
  maxBytes: number;
  /** Called as bytes arrive (throttle it yourself); `total` is the Content-Length when sent. */
  onProgress?: (received: number, total: number | null) => void;
}

const DEFAULT_USER_AGENT = 'config-share/3.16 (+https://github.com/config-share; library import)';
const MAX_JSON_BYTES = 32 * 1024 * 1024;

export function createLibraryHttp(options: LibraryHttpOptions) {
  const { allowPrivate, userAgent = DEFAULT_USER_AGENT, connectTimeoutMs = 10_000 } = options;
  const client = lazyUndiciAgent({
    connect: { timeout: connectTimeoutMs, ...(allowPrivate ? {} : { lookup: guardedLookup }) },
    keepAliveTimeout: 4_000,
  });

  async function checkTarget(url: URL) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new SsrfError('ssrf_blocked', url.hostname, `${url.protocol} URLs are not allowed.`);
    if (allowPrivate) return;
    if (url.protocol !== 'https:')
      throw new SsrfError('ssrf_blocked', url.hostname, 'Only https:// library URLs are allowed.');
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // IP literals never reach the agent's lookup: judged here.
    if (/^[\d.]+$/.test(host) || host.includes(':')) await resolvePublicAddress(host);
  }

  /** Sends the request, following up to `maxRedirects` checked redirects; the caller reads or dumps the body. */
  async function open(rawUrl: string, init: LibraryRequest): Promise<Dispatcher.ResponseData & { url: string }> {
    let url = new URL(rawUrl);
    let method = init.method ?? 'GET';
    let body = init.body;
    const { undici, agent } = await client.load();
    for (let hop = 0; ; hop++) {
      await checkTarget(url);
      const response = await undici.request(url, {
        method,
        headers: { 'user-agent': userAgent, ...init.headers },
        body,
        dispatcher: agent,
        signal: init.signal,
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await response.body.dump().catch(() => {});
        if (hop >= (init.maxRedirects ?? 5)) throw new Error('too many redirects');
        const next = new URL(location, url);
        // A signed download URL must not receive the library's credentials on another host.
        if (next.host !== url.host && init.headers) delete (init.headers as Record<string, string>).authorization;
        url = next;
        if (response.statusCode === 303) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      return Object.assign(response, { url: url.href });
    }
  }

  return {
    open,

    /** GET or POST for JSON: any status comes back with its parsed body (null if not JSON) for the adapter. */
    async json<T = unknown>(url: string, init: LibraryRequest): Promise<JsonAnswer<T>> {
      const response = await open(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_JSON_BYTES) {
          response.body.destroy();
          throw new Error('the answer is too large');
        }
        chunks.push(chunk as Buffer);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        parsed = null;
      }
      return { status: response.statusCode, headers: response.headers, body: parsed as T };
    },

    /**
     * Streams `url` into `destPath`, never holding the body in memory, stopping at `maxBytes`. Returns the bytes
     * written; non-2xx throws a LibraryError (401/403 `auth`, 404 `not_found`, else `unavailable`).
     */
    async download(provider: string, url: string, destPath: string, downloadOptions: DownloadOptions): Promise<number> {
      const { signal, maxBytes, onProgress } = downloadOptions;
      const response = await open(url, { headers: { ...downloadOptions.headers }, signal });
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump().catch(() => {});
        throw statusError(provider, response.statusCode, 'download');
      }
      const declared = Number(response.headers['content-length']);
      const total = Number.isFinite(declared) && declared > 0 ? declared : null;
      if (total !== null && total > maxBytes) {
        response.body.destroy();
        throw new DownloadTooLargeError(maxBytes);
      }
      const out = createWriteStream(destPath);
      let received = 0;
      try {
        for await (const chunk of response.body) {
          const bytes = chunk as Buffer;
          received += bytes.length;
          if (received > maxBytes) throw new DownloadTooLargeError(maxBytes);
          if (!out.write(bytes)) await once(out, 'drain');
          onProgress?.(received, total);
        }
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
      } catch (error) {
        response.body.destroy();
        out.destroy();
        throw error;
      }
      return received;
    },

    close: () => client.close(),
  };
}

export type LibraryHttp = ReturnType<typeof createLibraryHttp>;

/** Failed status to LibraryError: 401/403 auth, 404 not_found, 429 rate_limited, 400 bad_request, else unavailable. */
export function statusError(provider: string, status: number, what: string, detail?: string): LibraryError {
  const suffix = detail ? `: ${detail}` : '';
  if (status === 401 || status === 403)
    return new LibraryError('auth', provider, `${what} was refused (${status})${suffix}`, status);
  if (status === 404) return new LibraryError('not_found', provider, `${what}: not found${suffix}`, status);
  if (status === 429)
    return new LibraryError(
      'rate_limited',
      provider,
      `${what}: too many requests, the library throttled us${suffix}`,
      status,
    );
  if (status === 400)
    return new LibraryError('bad_request', provider, `${what}: the library refused the request (400)${suffix}`, status);
  return new LibraryError('unavailable', provider, `${what} failed with HTTP ${status}${suffix}`, status);
}
