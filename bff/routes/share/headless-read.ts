import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ShareIds } from '../../services/share-ids.js';

/** What the share page and oEmbed learn from the public read. */
export interface HeadlessRead {
  /** The server's status (or the BFF's own 429/503). */
  status: number;
  /** The share's `frame-ancestors` (on a 200 and a password 401), else undefined. */
  frameAncestors?: string;
  project?: { name: string; type?: string };
  retryAfter?: string;
}

/**
 * The public read as a headless client makes it, through this BFF's own route, so the read cache
 * answers it and it spends the visitor's read budget like any other read.
 */
export async function headlessRead(
  app: FastifyInstance,
  request: FastifyRequest,
  { projectId, token }: ShareIds,
): Promise<HeadlessRead> {
  const res = await app.inject({
    method: 'GET',
    url: `/share/${encodeURIComponent(projectId)}/${encodeURIComponent(token)}`,
    headers: { accept: 'application/json' },
    // The visitor's address, so the read counts against their budget.
    remoteAddress: request.ip,
  });
  const csp = res.headers['content-security-policy'];
  const frameAncestors = typeof csp === 'string' && /^frame-ancestors [^;,]+$/.test(csp) ? csp : undefined;
  const retryAfter = res.headers['retry-after'];
  const read: HeadlessRead = {
    status: res.statusCode,
    frameAncestors,
    retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
  };
  if (res.statusCode === 200) {
    const project = (res.json() as { project?: { name?: unknown; type?: unknown } }).project;
    read.project = {
      name: typeof project?.name === 'string' ? project.name : '',
      type: typeof project?.type === 'string' ? project.type : undefined,
    };
  }
  return read;
}
