import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What a public request may act on once contract section 5's checks pass. */
export interface ShareAccess {
  projectId: string;
  workspaceId: string;
  projectName: string;
  projectRevision: number;
  shareRevision: number;
  requirePassword: boolean;
  domainRestrictions: string[];
}

/**
 * Runs the checks of contract section 5 that come after the public key and the rate limit
 * (those are hooks): project, token and enabled (one 404), billing (402), embed host (403),
 * password (401/429). Throws AppError; returns the access on success.
 * PLACEHOLDER: implemented by the sharing work.
 */
export async function authorizeShareRequest(
  _app: FastifyInstance,
  _request: FastifyRequest,
  _params: { projectId: string; token: string },
): Promise<ShareAccess> {
  throw new Error('not implemented');
}
