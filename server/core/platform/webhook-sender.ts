import { STATUS_CODES } from 'node:http';
import { SsrfError, guardedLookup, resolvePublicAddress } from './ssrf-guard.js';
import type { AttemptError } from './db/schema/index.js';
import { lazyUndiciAgent } from './lazy-undici-agent.js';

/**
 * Sends webhook requests: no redirects or environment proxy, TLS verified, one deadline, at most RESPONSE_KEEP_BYTES
 * read. The target is checked before dispatch and again at connect (the agent's `lookup`) to defeat DNS rebinding.
 */

/** Bytes of a response body kept in the delivery record. */
const RESPONSE_KEEP_BYTES = 4096;

export interface SendOutcome {
  /** The receiver's status; 0 when no response arrived. */
  statusCode: number;
  statusText: string;
  /** 2xx only. */
  delivered: boolean;
  error: AttemptError | null;
  durationMs: number;
  /** The first 4 KB of the response body, as text (null when none arrived). */
  responseBody: string | null;
  /** Retry-After of the response, raw. */
  retryAfter: string | null;
}

export interface WebhookSenderOptions {
  /** WEBHOOK_ALLOW_INSECURE: http:// and private addresses allowed (development and tests only). */
  allowInsecure: boolean;
  /** Connection set-up limit (default 10 s), within the request's own timeout. */
  connectTimeoutMs?: number;
}

export interface WebhookSender {
  /** One POST; never throws for what the receiver or the network did (that is the outcome). */
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendOutcome>;
  close(): Promise<void>;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/;

/** The error class of a failure with no usable response. */
function classifyError(error: unknown): AttemptError {
  type ErrorLike = { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  for (let e = error as ErrorLike | undefined; e; e = e.cause as ErrorLike | undefined) {
    if (e instanceof SsrfError) return e.code === 'dns' ? 'dns' : 'ssrf_blocked';
    const code = String(e.code ?? '');
    if (
      e.name === 'TimeoutError' ||
      e.name === 'AbortError' ||
      code === 'UND_ERR_CONNECT_TIMEOUT' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'ETIMEDOUT'
    )
      return 'timeout';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA' || code === 'EAI_FAIL') return 'dns';
    if (TLS_CODE.test(code) || /certificate|SSL routines/i.test(String(e.message ?? ''))) return 'tls';
  }
  return 'connect';
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of body) {
    chunks.push(chunk.subarray(0, RESPONSE_KEEP_BYTES - kept));
    kept += Math.min(chunk.length, RESPONSE_KEEP_BYTES - kept);
    if (kept >= RESPONSE_KEEP_BYTES) {
      // The rest is not read: the connection is dropped rather than drained.
      body.destroy();
      break;
    }
  }
  // A cut may split a UTF-8 character: the replacement character marks it. NUL, which Postgres
  // text cannot hold, is replaced the same way: a receiver's reply never fails the record.
  return Buffer.concat(chunks).toString('utf8').replaceAll('\0', '\uFFFD');
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { allowInsecure, connectTimeoutMs = 10_000 } = options;
  const client = lazyUndiciAgent({
    connect: { timeout: connectTimeoutMs, ...(allowInsecure ? {} : { lookup: guardedLookup }) },
    // Under the 5 s idle timeout of common servers (Node's own), so a kept connection is rarely reset under us.
    keepAliveTimeout: 4_000,
  });

  return {
    async post(url, headers, body, timeoutMs) {
      const started = performance.now();
      const done = (partial: Omit<SendOutcome, 'durationMs'>): SendOutcome => ({
        ...partial,
        durationMs: Math.round(performance.now() - started),
      });
      const failed = (error: AttemptError) =>
        done({ statusCode: 0, statusText: '', delivered: false, error, responseBody: null, retryAfter: null });
      const { undici, agent } = await client.load();
      try {
        const target = new URL(url);
        if (!allowInsecure) {
          if (target.protocol !== 'https:') return failed('ssrf_blocked');
          // IP literals never reach `lookup`: judged here (a name is judged at connect time).
          const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
          if (/^[\d.]+$/.test(host) || host.includes(':')) await resolvePublicAddress(host);
        }
        // One deadline over the whole exchange (connection, headers, body); a status that arrived
        // counts even when the body is cut short by it.
        const deadline = AbortSignal.timeout(timeoutMs);
        const response = await undici.request(target, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
          signal: deadline,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        let responseBody: string | null;
        try {
          responseBody = await readLimited(response.body);
        } catch {
          // The status arrived; a body cut short (timeout, reset) does not change what it said.
          response.body.destroy();
          responseBody = null;
        }
        const retryAfter = response.headers['retry-after'];
        const delivered = response.statusCode >= 200 && response.statusCode < 300;
        return done({
          statusCode: response.statusCode,
          statusText: STATUS_CODES[response.statusCode] ?? '',
          delivered,
          error: delivered ? null : 'non_2xx',
          responseBody,
          retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : (retryAfter ?? null),
        });
      } catch (error) {
        if (error instanceof TypeError && /Invalid URL/i.test(error.message)) return failed('connect');
        return failed(error instanceof undici.errors.RequestAbortedError ? 'timeout' : classifyError(error));
      }
    },
    close: () => client.close(),
  };
}
