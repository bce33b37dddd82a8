import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ownOrigin } from '../../services/own-origin.js';
import { prefersHtml } from '../../services/prefers-html.js';
import { shareIdsOfPath } from '../../services/share-ids.js';
import { renderSharePage, sharePageSecurityPolicy, type SharePageState } from '../../services/share-page.js';
import { errorBody } from '../../error-body.js';
import { headlessRead } from './headless-read.js';

/** Whether a request to the share routes is a browser asking for the share page (GET, HTML preferred). */
export const isPageRequest = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  prefersHtml(request.headers.accept) &&
  request.url.split('/').length === 4;

/** The page's state and HTTP status for each answer of the public read. */
function pageStateOf(status: number): { state: SharePageState; status: number } {
  switch (status) {
    case 200:
      return { state: 'ready', status: 200 };
    case 401:
      // The page works: the element asks for the password.
      return { state: 'password', status: 200 };
    case 402:
      return { state: 'unavailable', status: 402 };
    case 400:
    case 403:
    case 404:
      return { state: 'not-found', status: 404 };
    case 429:
      return { state: 'error', status: 429 };
    default:
      return { state: 'error', status: 503 };
  }
}

/**
 * The share page for a browser navigation (docs/share-page.md). An unavailable share is framed with
 * `frame-ancestors *` so the iframe shows the not-available state instead of a blocked frame.
 */
export function sharePage(app: FastifyInstance) {
  return async function answerPage(request: FastifyRequest, reply: FastifyReply) {
    const origin = ownOrigin(request.protocol, request.host);
    if (!origin) return reply.code(400).send(errorBody('invalid_request', 'The Host header is malformed.'));
    const ids = shareIdsOfPath(request.url);
    const read = ids ? await headlessRead(app, request, ids) : { status: 404 };
    const { state, status } = pageStateOf(read.status);
    const frameAncestors =
      (state === 'ready' || state === 'password' ? read.frameAncestors : undefined) ?? 'frame-ancestors *';
    // This is a page, not the API: no CORS, and its own caching and referrer rules.
    reply.removeHeader('access-control-allow-origin').removeHeader('access-control-expose-headers');
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', sharePageSecurityPolicy(frameAncestors))
      .header('cache-control', state === 'ready' ? 'no-cache' : 'no-store')
      .header('vary', 'Accept')
      // Same-origin reads of the element carry the page as Referer (the BFF knows them as its own);
      // nothing leaves with the token.
      .header('referrer-policy', 'same-origin')
      .header('x-content-type-options', 'nosniff');
    if (state !== 'ready') reply.header('x-robots-tag', 'noindex, nofollow');
    if (read.retryAfter) reply.header('retry-after', read.retryAfter);
    return reply.send(renderSharePage({ origin, ids, state, project: read.project }));
  };
}
