import type { FastifyInstance } from 'fastify';

/**
 * `GET /.well-known/jwks.json` (docs/cart.md, "Verifying a token"): the public keys cart tokens verify against,
 * the signing key's first, then those kept after a rotation. No credentials; any origin and cache may keep it.
 */
export default async function jwksRoutes(app: FastifyInstance) {
  const document = JSON.stringify(app.deps.services.configurations.jwks());
  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['meta'], summary: 'The JWK Set that verifies cart tokens (ES256).', security: [] } },
    async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=3600')
        .header('access-control-allow-origin', '*')
        .type('application/jwk-set+json')
        .send(document),
  );
}
