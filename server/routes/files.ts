import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { forbidden, notFound } from '../core/domain/errors.js';
import { contentTypeFor, isSafeKey } from '../core/platform/storage/index.js';
import { errors } from '../schemas/common.js';

/** Browsers cache a file at most this long (and never past the URL's own expiry). */
const MAX_AGE_SECONDS = 3600;
/** Lifetime of the presigned GET an object store redirects to: long enough to start a download, short if leaked. */
const PRESIGN_SECONDS = 300;
const FileParams = Type.Object({ '*': Type.String() });
/** Loose on purpose: a malformed signature is a 403 like a wrong one, not a 400. */
const FileQuery = Type.Object({ exp: Type.Optional(Type.String()), sig: Type.Optional(Type.String()) });

/**
 * Signed file downloads (docs/api.md, Files): local storage streams, an object store redirects to a
 * presigned URL. Every answer allows any origin: model-viewer fetches them from merchant pages.
 */
export default async function fileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { signer, storage } = app.deps;

  // Only the reply.sendFile decorator: no static route, and a root given per call.
  await app.register(fastifyStatic, { serve: false });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'Accept-Ranges, Content-Length, Content-Range, ETag, Last-Modified');
    // Pages that isolate themselves (COEP: require-corp) may still embed these files.
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });

  app.options('/files/*', { schema: { hide: true } }, async (_request, reply) => {
    return reply
      .code(204)
      .header('access-control-allow-methods', 'GET, HEAD')
      .header('access-control-allow-headers', 'range, if-none-match, if-modified-since, if-range')
      .header('access-control-max-age', '86400')
      .send();
  });

  app.get(
    '/files/*',
    {
      schema: {
        tags: ['files'],
        summary: 'Download a file through a signed URL',
        description:
          'The URL comes signed from the API (asset url, model urls, screenshots, PDFs). 403 when the signature is ' +
          'wrong or expired.',
        security: [],
        params: FileParams,
        querystring: FileQuery,
        response: {
          200: { description: 'The file (ETag, Last-Modified, Accept-Ranges).', type: 'string', format: 'binary' },
          206: { description: 'The requested byte range (Content-Range).', type: 'string', format: 'binary' },
          302: { description: 'Object storage: a redirect to a short-lived presigned URL.', type: 'null' },
          304: { description: 'Not modified (If-None-Match / If-Modified-Since).', type: 'null' },
          ...errors(403, 404, 416),
        },
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      if (!isSafeKey(key)) throw notFound('File');
      const { exp, sig } = request.query;
      const expiry = exp && /^[0-9]{1,12}$/.test(exp) ? Number(exp) : NaN;
      if (!sig || sig.length > 200 || !signer.verify(key, expiry, sig))
        throw forbidden('The file link is invalid or has expired.');

      if (storage.presign) {
        // Never cached: the presigned URL it points at expires in minutes.
        return reply.header('cache-control', 'no-store').redirect(await storage.presign(key, PRESIGN_SECONDS), 302);
      }
      if (!storage.localPath || !(await storage.head(key))) throw notFound('File');

      const file = storage.localPath(key);
      const maxAge = Math.max(0, Math.min(MAX_AGE_SECONDS, expiry - Math.floor(Date.now() / 1000)));
      reply
        .header('content-type', contentTypeFor(key))
        .header('cache-control', `private, max-age=${maxAge}`)
        .header('x-content-type-options', 'nosniff');
      return reply.sendFile(path.basename(file), path.dirname(file), {
        acceptRanges: true,
        etag: true,
        lastModified: true,
        cacheControl: false,
        // Ours, from the short list above, rather than a guess from a MIME database.
        contentType: false,
      });
    },
  );
}
