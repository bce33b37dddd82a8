import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { LRUCache } from 'lru-cache';
import type { PublicShareOptions } from '../../core/services/public-share/share-access.js';
import { PublicProjectReply, PublicReadHeaders, ShareParams, UnavailableBody } from '../../schemas/shares.js';
import { errors } from '../../schemas/common.js';
import { notFound } from '../../core/domain/errors.js';
import { decompressScene } from '../../core/domain/scene.js';
import { frameAncestors } from '../../core/domain/embed-hosts.js';
import { buildPublicProject, etagMatches, publicEtag, referencedAssetIds } from '../../core/domain/public-payload.js';
import { signingWindow } from '../../core/platform/storage/signed-urls.js';

/** Serialised 200 bodies kept in memory, by total size; a body above the entry limit is not kept. */
const BODY_CACHE_BYTES = 64 * 1024 * 1024;
const BODY_CACHE_ENTRY_BYTES = 8 * 1024 * 1024;

/**
 * `GET /share/:projectId/:token`: the public project payload (interface "Public project
 * payload", contract section 5). After the checks, the ETag is decided from revisions alone;
 * a 200 body is built once per project revision and signing window and then served from memory.
 */
export default async function readRoutes(app: FastifyInstance, { shares, authorize, readRateLimit }: PublicShareOptions) {
  const { config, signer } = app.deps;
  const bodies = new LRUCache<string, Buffer>({ maxSize: BODY_CACHE_BYTES, maxEntrySize: BODY_CACHE_ENTRY_BYTES, sizeCalculation: (body) => body.length });

  // Not the TypeBox provider: the 200 body is sent pre-serialised and 304 has none; the
  // response schemas document the shapes.
  app.get<{ Params: Static<typeof ShareParams> }>(
    '/share/:projectId/:token',
    {
      onRequest: readRateLimit,
      schema: {
        tags: ['public share'],
        summary: 'Read a shared project (public).',
        description:
          'Needs `apikey` and `Authorization: Bearer` with the public key. Checks, in order: public key (401 invalid_api_key), rate limit (429; RATE_LIMIT_SHARE_READ per client, one budget with model-urls), ' +
          'project/token/enabled (one 404 not_found), owner billing (402), embed host from Origin, else Referer (403 domain_not_allowed; ' +
          'a request with neither, such as a headless or native client, is allowed), password in X-Share-Password (401 password_required / ' +
          'invalid_password; the header carries the password as UTF-8; 429 for any password after 10 wrong tries in 15 minutes per client (IPv4 address, ' +
          'IPv6 /64) and project; 503 unavailable with Retry-After: 1 when the server already has 16 password checks running or queued), ' +
          'then If-None-Match (304). ' +
          'Models beyond the first 20 (SIGNED_MODEL_LIMIT) have no url: ' +
          'fetch them with POST .../model-urls.',
        security: [{ publicKey: [] }],
        params: ShareParams,
        headers: PublicReadHeaders,
        response: {
          200: PublicProjectReply,
          304: Type.Null({ description: 'Not modified: keep the last payload.' }),
          ...errors(401, 403, 404, 429, 503),
          402: UnavailableBody,
        },
      },
    },
    async (request, reply) => {
      const access = await authorize(request, request.params);
      const window = signingWindow();
      const etagOf = (projectRevision: number) =>
        publicEtag({ projectId: access.projectId, projectRevision, shareRevision: access.shareRevision, assetsRevision: access.assetsRevision, signingWindow: window, signedModelLimit: config.signedModelLimit });

      reply
        .header('cache-control', access.requirePassword ? 'private, no-cache' : 'no-cache')
        .header('content-security-policy', frameAncestors(access.domainRestrictions));

      const etag = etagOf(access.projectRevision);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).header('etag', etag).send();

      let body = bodies.get(`${access.projectId}|${etag}`);
      let bodyEtag = etag;
      if (!body) {
        const stored = await shares.scene(access.workspaceId, access.projectId);
        if (!stored) throw notFound('Share');
        // The project may have changed since the checks: label the body with what was read.
        bodyEtag = etagOf(stored.revision);
        const data = decompressScene(stored.scene);
        const assetKeys = await shares.assetKeys(access.workspaceId, referencedAssetIds(data.models ?? []));
        const project = buildPublicProject({ id: access.projectId, name: stored.name, type: stored.type }, data, {
          signedModelLimit: config.signedModelLimit,
          files: { workspaceId: access.workspaceId, projectId: access.projectId, assetKeys },
          sign: (key) => signer.signModel(key, window),
        });
        body = Buffer.from(JSON.stringify({ success: true, project }));
        bodies.set(`${access.projectId}|${bodyEtag}`, body);
      }
      return reply.header('etag', bodyEtag).type('application/json; charset=utf-8').send(body);
    },
  );
}
