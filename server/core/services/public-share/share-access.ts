import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, notFound } from '../../domain/errors.js';
import { embedOriginOf, isEmbedAllowed } from '../../domain/embed-hosts.js';
import { isUuid } from '../../domain/ids.js';
import type { PublicShareRow } from '../../repositories/shares.js';

/** What a public request may act on once the read's checks pass (docs/api.md, Public read). */
export interface ShareAccess {
  projectId: string;
  workspaceId: string;
  projectName: string;
  projectRevision: number;
  shareRevision: number;
  /** The workspace's assets revision: an ETag input, since deleting an asset removes a model URL. */
  assetsRevision: number;
  requirePassword: boolean;
  domainRestrictions: string[];
  /** The project's type (configurator, viewer, ...). */
  projectType: string;
}

/** What a public request brings to the share checks, whatever carried it (HTTP, a test). */
export interface ShareRequest {
  projectId: string;
  token: string;
  origin?: string;
  referer?: string;
  /** The X-Share-Password header as received. */
  password?: string;
  /** The client's address (rate limits and password attempts). */
  ip: string;
  /**
   * The share-state check (`shareStates.isCurrent()`) when the caller started it early, so that
   * it travels to Redis together with the rate limit's command (one round trip on the hot path).
   */
  memoryCheck?: Promise<boolean>;
}

/** Tokens are 43 base64url characters; some slack for tokens issued by other means. */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of a presented secret with the expected one: equal-length digests, whatever the inputs. */
function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** {@link secretsEqual} against one fixed secret digested once (the public key, checked on every public request). */
export function secretMatcher(expected: string): (given: string) => boolean {
  const expectedDigest = digest(expected);
  return (given) => timingSafeEqual(digest(given), expectedDigest);
}

/** One answer for an unknown project, a wrong token and a disabled share: none of them is revealed. */
export const shareNotFound = () => notFound('Share');

/**
 * The 402 body is exactly `{ success: false, error: 'unavailable', reason: 'owner_billing' }`
 * (docs/api.md, Public read): `message: undefined` drops the handler's message when serialised.
 */
const ownerBillingLocked = () =>
  new AppError(402, 'unavailable', 'The project is unavailable.', { reason: 'owner_billing', message: undefined });

/** Whether the ids can name a share at all: malformed ones are the same 404, without a query. */
export const isWellFormedShareRequest = (request: Pick<ShareRequest, 'projectId' | 'token'>) =>
  isUuid(request.projectId) && TOKEN.test(request.token);

/**
 * The read's checks (docs/api.md, Public read) that need no secret work, in order: project, token and enabled (one
 * 404), billing (402), embed host (403). The password comes after (password-check.ts).
 */
export function checkShare(share: PublicShareRow | null, request: ShareRequest): asserts share is PublicShareRow {
  const tokenOk = secretsEqual(request.token, share?.shareToken ?? '');
  if (!share || !tokenOk || !share.isEnabled) throw shareNotFound();
  if (share.billingStatus === 'locked') throw ownerBillingLocked();
  if (!isEmbedAllowed(share.domainRestrictions, embedOriginOf(request.origin, request.referer))) {
    throw new AppError(403, 'domain_not_allowed', 'This share may not be embedded on this site.');
  }
}

export function toShareAccess(share: PublicShareRow): ShareAccess {
  return {
    projectId: share.projectId,
    workspaceId: share.workspaceId,
    projectName: share.name,
    projectRevision: share.projectRevision,
    shareRevision: share.shareRevision,
    assetsRevision: share.assetsRevision,
    requirePassword: share.requirePassword,
    domainRestrictions: share.domainRestrictions,
    projectType: share.type,
  };
}
