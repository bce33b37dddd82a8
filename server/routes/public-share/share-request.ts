import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { ShareAccess, ShareRequest } from '../../core/services/public-share/share-access.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the submit and model-urls routes, whose share checks run before the body is read. */
    shareAccess?: ShareAccess;
    /** The share-state check, started next to the rate limit (see ShareRequest.memoryCheck). */
    shareMemoryCheck?: Promise<boolean>;
  }
}

/** What the public routes share: the read's rate limit, one budget for the read and model-urls. */
export interface PublicShareRouteOptions {
  readRateLimit: onRequestAsyncHookHandler;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The parts of a public HTTP request the share checks look at. */
export function shareRequestOf(request: FastifyRequest): ShareRequest {
  const { projectId, token } = request.params as { projectId: string; token: string };
  return {
    projectId,
    token,
    origin: header(request, 'origin'),
    referer: header(request, 'referer'),
    password: header(request, 'x-share-password'),
    ip: request.ip,
    memoryCheck: request.shareMemoryCheck,
  };
}
