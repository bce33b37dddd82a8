import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for a public route: any page may embed a share (the embed host rule is enforced by the
 * route itself, with a 403 the page must be able to read), so the request's Origin is echoed.
 * Set before any check, so every status (401, 402, 403, 404, 429, 304) carries it. The BFF sets
 * the same on the answers it gives itself.
 */
export function publicCorsHeaders(request: FastifyRequest, reply: FastifyReply) {
  reply.headers(publicCorsHeaderValues(request.headers.origin));
}

/** The public CORS headers for a request's Origin, as a record (the BFF's cache hits write them without Fastify). */
export function publicCorsHeaderValues(origin: string | undefined): Record<string, string> {
  const headers: Record<string, string> = origin ? { 'access-control-allow-origin': origin } : {};
  headers['access-control-expose-headers'] = 'ETag, Retry-After';
  headers.vary = 'Origin, X-Share-Password';
  headers['cache-control'] = 'no-cache';
  return headers;
}
