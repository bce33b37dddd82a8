import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { AppDeps } from '../../deps.js';
import { AppError, notFound, serviceUnavailable, unauthorized } from '../../core/errors.js';
import { embedOriginOf, isEmbedAllowed } from '../../core/embed-hosts.js';
import { verifyPassword } from '../../core/passwords.js';
import { createShareRepository, type ShareRepository } from '../../repositories/shares.js';

/** What a public request may act on once contract section 5's checks pass. */
export interface ShareAccess {
  projectId: string;
  workspaceId: string;
  projectName: string;
  projectRevision: number;
  shareRevision: number;
  requirePassword: boolean;
  domainRestrictions: string[];
  /** The project's type (configurator, viewer, ...). */
  projectType: string;
}

/** Wrong passwords allowed per client IP and project in {@link PASSWORD_WINDOW_MS}; the next try is 429. */
export const PASSWORD_ATTEMPTS = 10;
export const PASSWORD_WINDOW_MS = 15 * 60_000;
/** How long a successful password check is remembered, so repeated reads do not re-run scrypt. */
const VERIFIED_TTL_MS = 2 * 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tokens are 43 base64url characters; some slack for tokens issued by other means. */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

// Decrements only a live counter: a refund must never create a key without expiry.
const REFUND = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0`;

interface ShareAccessState {
  repo: ShareRepository;
  /** HMAC(projectId, share revision, password) of recent successful checks. */
  verified: LRUCache<string, true>;
  /** Per process: the cache keys mean nothing outside it. */
  cacheSecret: Buffer;
}

const states = new WeakMap<AppDeps, ShareAccessState>();

function stateOf(deps: AppDeps): ShareAccessState {
  let state = states.get(deps);
  if (!state) {
    state = {
      repo: createShareRepository(deps.db),
      verified: new LRUCache<string, true>({ max: 10_000, ttl: VERIFIED_TTL_MS }),
      cacheSecret: randomBytes(32),
    };
    states.set(deps, state);
  }
  return state;
}

/** One answer for an unknown project, a wrong token and a disabled share: none of them is revealed. */
const shareNotFound = () => notFound('Share');

/**
 * The 402 body is exactly `{ success: false, error: 'unavailable', reason: 'owner_billing' }`
 * (contract section 1): `message: undefined` drops the handler's message when serialised.
 */
export const ownerBillingLocked = () =>
  new AppError(402, 'unavailable', 'The project is unavailable.', { reason: 'owner_billing', message: undefined });

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time token comparison: equal-length digests, whatever the inputs' lengths. */
function tokensEqual(given: string, stored: string): boolean {
  return timingSafeEqual(digest(given), digest(stored));
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
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

function lockedOut(ttlMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new AppError(
    429,
    'rate_limited',
    `Too many wrong passwords, retry in ${seconds} s.`,
    { retryAfter: seconds },
    { 'retry-after': String(seconds), 'ratelimit-limit': String(PASSWORD_ATTEMPTS), 'ratelimit-remaining': '0', 'ratelimit-reset': String(seconds) },
  );
}

async function checkPassword(deps: AppDeps, state: ShareAccessState, request: FastifyRequest, share: { projectId: string; shareRevision: number; passwordHash: string | null }) {
  const raw = header(request, 'x-share-password');
  if (raw === undefined || raw === '') throw unauthorized('password_required', 'This share needs a password: send it in X-Share-Password.');
  const password = decodePassword(raw);
  const counterKey = `${deps.config.queuePrefix}:share-pw:${share.projectId}:${request.ip}`;
  const cacheKey = createHmac('sha256', state.cacheSecret).update(`${share.projectId}\n${share.shareRevision}\n${password}`).digest('base64url');
  const { redis } = deps;
  // Fail closed: without the counter, password guessing would be unlimited.
  const guard = <T>(work: Promise<T>) => work.catch(() => Promise.reject(serviceUnavailable('Password checks are unavailable right now.')));

  // A locked-out client is refused even with the right password, or the cache would tell it so.
  const failures = Number((await guard(redis.get(counterKey))) ?? 0);
  if (failures >= PASSWORD_ATTEMPTS) throw lockedOut(await guard(redis.pttl(counterKey)));
  if (state.verified.has(cacheKey)) return;

  // Count before hashing, so parallel guesses cannot overtake the limit; refunded on success.
  const result = await guard(redis.multi().set(counterKey, '0', 'PX', PASSWORD_WINDOW_MS, 'NX').incr(counterKey).pttl(counterKey).exec());
  const count = Number(result?.[1]?.[1] ?? PASSWORD_ATTEMPTS + 1);
  if (count > PASSWORD_ATTEMPTS) throw lockedOut(Number(result?.[2]?.[1] ?? PASSWORD_WINDOW_MS));

  const ok = share.passwordHash !== null && (await verifyPassword(password, share.passwordHash));
  if (!ok) throw unauthorized('invalid_password', 'The share password is wrong.');
  state.verified.set(cacheKey, true);
  await guard(redis.eval(REFUND, 1, counterKey));
}

/**
 * Runs the checks of contract section 5 that come after the public key and the rate limit
 * (those are hooks): project, token and enabled (one 404), billing (402), embed host (403),
 * password (401/429). Throws AppError; returns the access on success. Malformed ids and tokens
 * are the same 404, without a database query.
 */
export async function authorizeShareRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  params: { projectId: string; token: string },
): Promise<ShareAccess> {
  const state = stateOf(app.deps);
  if (!UUID.test(params.projectId) || !TOKEN.test(params.token)) throw shareNotFound();
  const share = await state.repo.findPublic(params.projectId.toLowerCase());
  const tokenOk = tokensEqual(params.token, share?.shareToken ?? '');
  if (!share || !tokenOk || !share.isEnabled) throw shareNotFound();
  if (share.billingStatus === 'locked') throw ownerBillingLocked();
  if (!isEmbedAllowed(share.domainRestrictions, embedOriginOf(header(request, 'origin'), header(request, 'referer')))) {
    throw new AppError(403, 'domain_not_allowed', 'This share may not be embedded on this site.');
  }
  if (share.requirePassword) await checkPassword(app.deps, state, request, share);
  return {
    projectId: share.projectId,
    workspaceId: share.workspaceId,
    projectName: share.name,
    projectRevision: share.projectRevision,
    shareRevision: share.shareRevision,
    requirePassword: share.requirePassword,
    domainRestrictions: share.domainRestrictions,
    projectType: share.type,
  };
}
