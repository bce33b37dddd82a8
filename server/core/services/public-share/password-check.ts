import { createHmac, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { serviceUnavailable, tooManyRequests, unauthorized } from '../../domain/errors.js';
import { passwordHashingBacklog, verifyPassword } from '../../platform/password-hashing.js';
import { clientKey } from '../../domain/client-key.js';

/** Wrong passwords allowed per client (IPv4 or IPv6 /64) and project in {@link PASSWORD_WINDOW_MS}; then 429. */
export const PASSWORD_ATTEMPTS = 10;
export const PASSWORD_WINDOW_MS = 15 * 60_000;
/**
 * scrypt runs a process takes on before a password check answers 503 (Retry-After: 1): a burst of visitors
 * queues briefly, but a flood of guesses cannot pile up memory and latency.
 */
export const MAX_PASSWORD_BACKLOG = 16;
/**
 * Of those, the most one project may have running or queued: guessers at one share (from many
 * addresses) cannot fill the queue and lock out the visitors of every other share.
 */
export const MAX_PASSWORD_CHECKS_PER_PROJECT = 4;
/** The share fields the check needs. */
export interface PasswordProtectedShare {
  projectId: string;
  shareRevision: number;
  passwordHash: string | null;
}

/** Where verified passwords are remembered: with the share's state (share-state-cache.ts), dropped with it. */
export interface VerifiedPasswords {
  isVerified(projectId: string, key: string): boolean;
  markVerified(projectId: string, key: string): void;
}

/**
 * Header values reach Node as latin1; a client that sends the password's UTF-8 bytes (the
 * documented encoding) gets them back as text here.
 */
function decodePassword(raw: string): string {
  if (/^[\x20-\x7e]*$/.test(raw)) return raw;
  const utf8 = Buffer.from(raw, 'latin1').toString('utf8');
  return utf8.includes('\uFFFD') ? raw : utf8;
}

function lockedOut(ttlMs: number, limit: number, message: string) {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return tooManyRequests(seconds, `${message} Retry in ${seconds} s.`, {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(seconds),
  });
}

/**
 * The password step (docs/api.md, Public read). Past {@link PASSWORD_ATTEMPTS} guesses every password is refused
 * (429), the right one included, so there is no oracle; Redis trouble fails closed (503) to keep guessing bounded.
 */
export function createPasswordCheck(redis: Redis, prefix: string, verified: VerifiedPasswords) {
  // rate-limiter-flexible's atomic counter: INCR with the window set on the first try.
  const attempts = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:share-pw`,
    points: PASSWORD_ATTEMPTS,
    duration: PASSWORD_WINDOW_MS / 1000,
  });
  /** Checks in progress by the same key: a page with three embeds hashes once. */
  const inFlight = new Map<string, Promise<boolean>>();
  /** Checks running or queued per project. */
  const perProject = new Map<string, number>();
  const cacheSecret = randomBytes(32);
  /** Redis trouble fails closed: without the counter guessing would be unlimited. */
  const unavailable = () => serviceUnavailable('Password checks are unavailable right now.');
  const refund = (key: string) => attempts.reward(key, 1).catch(() => Promise.reject(unavailable()));

  /** Counts one try; throws 429 past the limit (the try is counted all the same). */
  async function charge(key: string): Promise<void> {
    try {
      await attempts.consume(key, 1);
    } catch (error) {
      if (error instanceof RateLimiterRes)
        throw lockedOut(error.msBeforeNext, PASSWORD_ATTEMPTS, 'Too many wrong passwords.');
      throw unavailable();
    }
  }

  function verifyOnce(cacheKey: string, share: PasswordProtectedShare, password: string): Promise<boolean> {
    const running = inFlight.get(cacheKey);
    if (running) return running;
    const projectChecks = perProject.get(share.projectId) ?? 0;
    if (passwordHashingBacklog() >= MAX_PASSWORD_BACKLOG || projectChecks >= MAX_PASSWORD_CHECKS_PER_PROJECT) {
      return Promise.reject(
        serviceUnavailable('Too many password checks are running right now; retry in a second.', 1),
      );
    }
    perProject.set(share.projectId, projectChecks + 1);
    const check = (share.passwordHash === null ? Promise.resolve(false) : verifyPassword(password, share.passwordHash))
      .then((ok) => {
        if (ok) verified.markVerified(share.projectId, cacheKey);
        return ok;
      })
      .finally(() => {
        inFlight.delete(cacheKey);
        const left = (perProject.get(share.projectId) ?? 1) - 1;
        if (left > 0) perProject.set(share.projectId, left);
        else perProject.delete(share.projectId);
      });
    inFlight.set(cacheKey, check);
    return check;
  }

  /** `raw`: the X-Share-Password header as received; `ip`: the client's address. */
  return async function checkPassword(
    share: PasswordProtectedShare,
    raw: string | undefined,
    ip: string,
  ): Promise<void> {
    if (raw === undefined || raw === '')
      throw unauthorized('password_required', 'This share needs a password: send it in X-Share-Password.');
    const password = decodePassword(raw);
    const counter = `${share.projectId}:client:${clientKey(ip)}`;
    const cacheKey = createHmac('sha256', cacheSecret)
      .update(`${share.projectId}\n${share.shareRevision}\n${password}`)
      .digest('base64url');

    // A locked-out client is refused even with the right password, or the cache would tell it so.
    const state = await attempts.get(counter).catch(() => Promise.reject(unavailable()));
    if (state && state.consumedPoints >= PASSWORD_ATTEMPTS)
      throw lockedOut(state.msBeforeNext, PASSWORD_ATTEMPTS, 'Too many wrong passwords.');
    if (verified.isVerified(share.projectId, cacheKey)) return;

    // Counted before hashing, so parallel guesses cannot overtake the limit; refunded on success.
    await charge(counter);
    let ok: boolean;
    try {
      ok = await verifyOnce(cacheKey, share, password);
    } catch (error) {
      // Nothing was checked (busy): the try is not the client's to lose.
      await refund(counter);
      throw error;
    }
    if (!ok) throw unauthorized('invalid_password', 'The share password is wrong.');
    await refund(counter);
  };
}
