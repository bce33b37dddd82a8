import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const JwkSet = Type.Object({
  keys: Type.Array(
    Type.Object({
      kty: Type.Literal('EC'),
      crv: Type.Literal('P-256'),
      x: Type.String(),
      y: Type.String(),
      kid: Type.String({ description: 'The RFC 7638 thumbprint; a token names its key by it.' }),
      alg: Type.Literal('ES256'),
      use: Type.Literal('sig'),
    }),
  ),
});

/**
 * `GET /.well-known/jwks.json` (docs/cart.md, "Verifying a token"): the public keys cart tokens verify against,
 * the signing key's first, then those kept after a rotation. No credentials; any origin and cache may keep it.
 */
export default async function jwksRoutes(app: FastifyInstance) {
  const document = JSON.stringify(app.deps.services.configurations.jwks());
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['meta'],
        summary: 'The JWK Set that verifies cart tokens (ES256).',
        description:
          "The signing key's public half first, then the keys kept after a rotation (CART_SIGNING_KEYS_PREVIOUS); " +
          'empty without CART_SIGNING_KEY. Cache-Control: public, max-age=3600.',
        security: [],
        response: { 200: JwkSet },
      },
    },
    async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=3600')
        .header('access-control-allow-origin', '*')
        .type('application/jwk-set+json')
        .send(document),
  );
}
