import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for a public route: the Origin is echoed before any check so every status, including the embed
 * rule's 403, is readable by the page. The BFF sets the same on its own answers.
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
