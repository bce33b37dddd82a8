import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { AppError, notFound } from '../../domain/errors.js';
import { embedOriginOf, isEmbedAllowed } from '../../domain/embed-hosts.js';
import type { ShareRepository } from '../../repositories/shares.js';
import { createPasswordCheck } from './password-check.js';

/** What a public request may act on once contract section 5's checks pass. */
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

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the submit and model-urls routes, whose share checks run before the body is read. */
    shareAccess?: ShareAccess;
  }
}

/** Runs the share checks for a request; throws AppError, returns the access on success. */
export type AuthorizeShare = (request: FastifyRequest, params: { projectId: string; token: string }) => Promise<ShareAccess>;

/** What publicShareRoutes creates once and hands to each public route module. */
export interface PublicShareOptions {
  shares: ShareRepository;
  authorize: AuthorizeShare;
  /** The read's rate limit (an onRequest hook), one budget for the read and model-urls. */
  readRateLimit: onRequestAsyncHookHandler;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tokens are 43 base64url characters; some slack for tokens issued by other means. */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of a presented secret with the expected one: equal-length digests, whatever the inputs' lengths. */
export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** One answer for an unknown project, a wrong token and a disabled share: none of them is revealed. */
const shareNotFound = () => notFound('Share');

/**
 * The 402 body is exactly `{ success: false, error: 'unavailable', reason: 'owner_billing' }`
 * (contract section 1): `message: undefined` drops the handler's message when serialised.
 */
export const ownerBillingLocked = () =>
  new AppError(402, 'unavailable', 'The project is unavailable.', { reason: 'owner_billing', message: undefined });

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The checks of contract section 5 that come after the public key and the rate limit (those
 * are hooks): project, token and enabled (one 404), billing (402), embed host (403), password
 * (401/429, see createPasswordCheck). Malformed ids and tokens are the same 404, without a
 * database query. Created once per app: the password state lives in the returned function.
 */
export function createShareAccess(deps: Pick<AppDeps, 'config' | 'redis'>, shares: ShareRepository): AuthorizeShare {
  const checkPassword = createPasswordCheck(deps);

  return async function authorize(request, params) {
    if (!UUID.test(params.projectId) || !TOKEN.test(params.token)) throw shareNotFound();
    const share = await shares.findPublic(params.projectId.toLowerCase());
    const tokenOk = secretsEqual(params.token, share?.shareToken ?? '');
    if (!share || !tokenOk || !share.isEnabled) throw shareNotFound();
    if (share.billingStatus === 'locked') throw ownerBillingLocked();
    if (!isEmbedAllowed(share.domainRestrictions, embedOriginOf(header(request, 'origin'), header(request, 'referer')))) {
      throw new AppError(403, 'domain_not_allowed', 'This share may not be embedded on this site.');
    }
    if (share.requirePassword) await checkPassword(share, header(request, 'x-share-password'), request.ip);
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
  };
}
