import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for a public route: any page may embed a share (the embed host rule is enforced by the
 * route itself, with a 403 the page must be able to read), so the request's Origin is echoed.
 * Set before any check, so every status (401, 402, 403, 404, 429, 304) carries it. The BFF sets
 * the same on the answers it gives itself.
 */
export function publicCorsHeaders(request: FastifyRequest, reply: FastifyReply) {
  const origin = request.headers.origin;
  if (origin) reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', 'ETag, Retry-After');
  reply.header('vary', 'Origin, X-Share-Password');
  reply.header('cache-control', 'no-cache');
}
