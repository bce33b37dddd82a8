import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { AppDeps } from '../../deps.js';
import { serviceUnavailable, tooManyRequests, unauthorized } from '../../core/errors.js';
import { verifyPassword } from '../../core/passwords.js';
import { clientKey } from './client-key.js';
import { createConcurrencyLimit } from './concurrency-limit.js';

/** Wrong passwords allowed per client (IPv4 address or IPv6 /64) and project in {@link PASSWORD_WINDOW_MS}; the next try is 429. */
export const PASSWORD_ATTEMPTS = 10;
/** Wrong passwords allowed per project from all clients together in {@link PASSWORD_WINDOW_MS}. */
export const PROJECT_PASSWORD_ATTEMPTS = 100;
export const PASSWORD_WINDOW_MS = 15 * 60_000;
/** scrypt runs at once per process (each is ~128 MiB and ~0.5 s of CPU); past it, 503 with Retry-After: 1. */
export const MAX_CONCURRENT_PASSWORD_CHECKS = 2;
/** How long a verified password is remembered after its last use, so repeated reads do not re-run scrypt. */
const VERIFIED_TTL_MS = 2 * 60_000;

// Decrements only live counters: a refund must never create a key without expiry.
const REFUND = `for _, key in ipairs(KEYS) do if redis.call('EXISTS', key) == 1 then redis.call('DECR', key) end end return 0`;

/** The share fields the check needs. */
export interface PasswordProtectedShare {
  projectId: string;
  shareRevision: number;
  passwordHash: string | null;
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
 * The password step of contract section 5 (401 password_required / invalid_password, 429).
 *
 * Guessing is bounded twice, with counters in Redis shared by every server:
 * - per client and project: {@link PASSWORD_ATTEMPTS} tries whose password is not already
 *   verified, then 429 for every password, the right one included (no oracle);
 * - per project: {@link PROJECT_PASSWORD_ATTEMPTS} wrong passwords from all clients together
 *   (a botnet with many addresses). Past it, a password is hashed no more: it is accepted only if
 *   this process verified it in the last two minutes of use, else 429. Visitors who keep using
 *   the share keep working through an attack; one arriving fresh waits for the window, which is
 *   the price of a cap an attacker cannot step around. Those 429s count against the client, so
 *   a guesser gains nothing from the shortcut: still {@link PASSWORD_ATTEMPTS} tries per client.
 * Redis trouble fails closed (503): without the counters guessing would be unlimited.
 */
export function createPasswordCheck(deps: Pick<AppDeps, 'config' | 'redis'>) {
  const { redis } = deps;
  /** HMAC(projectId, share revision, password) of recent successful checks; per process, as is the secret. */
  const verified = new LRUCache<string, true>({ max: 10_000, ttl: VERIFIED_TTL_MS, updateAgeOnGet: true });
  const cacheSecret = randomBytes(32);
  const hashing = createConcurrencyLimit(MAX_CONCURRENT_PASSWORD_CHECKS);
  const guard = <T>(work: Promise<T>) => work.catch(() => Promise.reject(serviceUnavailable('Password checks are unavailable right now.')));

  /** Adds one try to each counter (starting its window if needed); their [count, ttl ms] pairs. */
  async function charge(...keys: string[]): Promise<Array<[number, number]>> {
    const multi = redis.multi();
    for (const key of keys) multi.set(key, '0', 'PX', PASSWORD_WINDOW_MS, 'NX').incr(key).pttl(key);
    const result = await guard(multi.exec());
    // A missing answer counts as over the limit: fail closed.
    return keys.map((_, k) => [Number(result?.[k * 3 + 1]?.[1] ?? Number.POSITIVE_INFINITY), Number(result?.[k * 3 + 2]?.[1] ?? PASSWORD_WINDOW_MS)]);
  }

  /** `raw`: the X-Share-Password header as received; `ip`: the client's address. */
  return async function checkPassword(share: PasswordProtectedShare, raw: string | undefined, ip: string): Promise<void> {
    if (raw === undefined || raw === '') throw unauthorized('password_required', 'This share needs a password: send it in X-Share-Password.');
    const password = decodePassword(raw);
    const base = `${deps.config.queuePrefix}:share-pw:${share.projectId}`;
    const clientCounter = `${base}:client:${clientKey(ip)}`;
    const projectCounter = `${base}:all`;
    const cacheKey = createHmac('sha256', cacheSecret).update(`${share.projectId}\n${share.shareRevision}\n${password}`).digest('base64url');

    const [clientFailures, projectFailures] = (await guard(redis.mget(clientCounter, projectCounter))).map((v) => Number(v ?? 0));
    // A locked-out client is refused even with the right password, or the cache would tell it so.
    if (clientFailures >= PASSWORD_ATTEMPTS) throw lockedOut(await guard(redis.pttl(clientCounter)), PASSWORD_ATTEMPTS, 'Too many wrong passwords.');
    if (verified.get(cacheKey)) return;

    if (projectFailures >= PROJECT_PASSWORD_ATTEMPTS) {
      await charge(clientCounter);
      throw lockedOut(await guard(redis.pttl(projectCounter)), PROJECT_PASSWORD_ATTEMPTS, 'Too many wrong passwords for this share.');
    }

    const release = hashing.tryAcquire();
    if (!release) throw serviceUnavailable('Too many password checks are running right now; retry in a second.', 1);
    try {
      // Count before hashing, so parallel guesses cannot overtake the limits; refunded on success.
      const [[clientCount, clientTtl], [projectCount, projectTtl]] = await charge(clientCounter, projectCounter);
      if (clientCount > PASSWORD_ATTEMPTS || projectCount > PROJECT_PASSWORD_ATTEMPTS) {
        // Nothing was hashed: the project is not charged; the client is, as above.
        await guard(redis.eval(REFUND, 1, projectCounter));
        throw clientCount > PASSWORD_ATTEMPTS
          ? lockedOut(clientTtl, PASSWORD_ATTEMPTS, 'Too many wrong passwords.')
          : lockedOut(projectTtl, PROJECT_PASSWORD_ATTEMPTS, 'Too many wrong passwords for this share.');
      }
      const ok = share.passwordHash !== null && (await verifyPassword(password, share.passwordHash));
      if (!ok) throw unauthorized('invalid_password', 'The share password is wrong.');
      verified.set(cacheKey, true);
      await guard(redis.eval(REFUND, 2, clientCounter, projectCounter));
    } finally {
      release();
    }
  };
}
