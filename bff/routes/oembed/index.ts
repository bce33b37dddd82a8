import type { FastifyInstance } from 'fastify';
import { ownOrigin } from '../../services/own-origin.js';
import { shareIdsOfUrl } from '../../services/share-ids.js';
import { PREVIEW_IMAGE, displayName, sharePageUrl } from '../../services/share-page.js';
import { oembedResponse } from '../../services/oembed.js';
import { errorBody, sendUpstreamUnavailable } from '../../error-body.js';
import { headlessRead } from '../share/headless-read.js';

/** The largest iframe bound a consumer may ask for, in CSS pixels. */
const MAX_BOUND = 10_000;

/** The query as the schema below admits it. */
interface OembedQuery {
  url: string;
  format?: string;
  maxwidth?: number;
  maxheight?: number;
}

// Plain JSON schema (Fastify validates it as any): the BFF starts without loading a schema builder.
const OEMBED_QUERY_SCHEMA = {
  type: 'object',
  required: ['url'],
  properties: {
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'A share link: `https://<app_domain>/share/<projectId>/<token>`.',
    },
    format: { type: 'string', maxLength: 16, description: '`json` (default); anything else answers 501.' },
    maxwidth: { type: 'integer', minimum: 1, maximum: MAX_BOUND },
    maxheight: { type: 'integer', minimum: 1, maximum: MAX_BOUND },
  },
  // Consumers add their own parameters (callback, lang...): ignored, not refused.
  additionalProperties: true,
  maxProperties: 16,
} as const;

/**
 * `GET /oembed` (oembed.com; docs/share-page.md): a `rich` iframe of the share page, at most 800 x 600.
 * A password share is 401 (oEmbed's "private resource"); any share that cannot be shown is 404.
 */
export default async function oembedRoutes(app: FastifyInstance) {
  app.get<{ Querystring: OembedQuery }>(
    '/oembed',
    { schema: { querystring: OEMBED_QUERY_SCHEMA } },
    async (request, reply) => {
      // oEmbed consumers include browsers on any site; nothing here is private.
      reply.header('access-control-allow-origin', '*').header('cache-control', 'no-cache');
      const { url, format = 'json', maxwidth, maxheight } = request.query;
      if (format !== 'json')
        return reply.code(501).send(errorBody('not_implemented', 'Only format=json is supported.'));
      const origin = ownOrigin(request.protocol, request.host);
      if (!origin) return reply.code(400).send(errorBody('invalid_request', 'The Host header is malformed.'));
      const ids = shareIdsOfUrl(url);
      if (!ids) return reply.code(404).send(errorBody('not_found', 'The url is not a share link.'));
      const read = await headlessRead(app, request, ids);
      if (read.status === 401)
        return reply
          .code(401)
          .send(
            errorBody('password_required', 'This share is protected by a password and cannot be embedded with oEmbed.'),
          );
      if (read.status === 429) {
        if (read.retryAfter) reply.header('retry-after', read.retryAfter);
        return reply.code(429).send(errorBody('rate_limited', 'Too many requests, try again later.'));
      }
      if (read.status !== 200 || !read.project) {
        if (read.status >= 500) return sendUpstreamUnavailable(reply);
        return reply.code(404).send(errorBody('not_found', 'Share not found.'));
      }
      return reply.type('application/json; charset=utf-8').send(
        oembedResponse({
          pageUrl: sharePageUrl(origin, ids),
          origin,
          title: displayName(read.project.name),
          maxwidth,
          maxheight,
          thumbnail: {
            url: `${origin}${PREVIEW_IMAGE.path}`,
            width: PREVIEW_IMAGE.width,
            height: PREVIEW_IMAGE.height,
          },
        }),
      );
    },
  );
}
