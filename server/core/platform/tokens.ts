import type { JWTPayload } from 'jose';
import type { AuthSettings } from './config/pieces.js';
import { ConfigError } from './config/settings.js';
import { loadOnce } from './load-once.js';

/**
 * Access tokens: JWTs verified with jose, either with the shared HS256 secret (the model hosted
 * Postgres back ends use) or against a JWKS. Algorithms are pinned: the key alone never decides.
 */
export interface TokenVerifier {
  verify(token: string): Promise<JWTPayload & { sub: string }>;
}

/** jose loads on the first token, not at every process start. */
const loadJose = loadOnce(() => import('jose'));

export function createTokenVerifier(auth: AuthSettings['auth']): TokenVerifier {
  const options = { issuer: auth.issuer, audience: auth.audience };
  if (auth.jwksUrl) {
    const jwksUrl = new URL(auth.jwksUrl);
    const jwks = loadOnce(async () => (await loadJose()).createRemoteJWKSet(jwksUrl));
    return {
      async verify(token) {
        const { jwtVerify } = await loadJose();
        const { payload } = await jwtVerify(token, await jwks(), {
          ...options,
          algorithms: ['RS256', 'ES256', 'EdDSA'],
          requiredClaims: ['sub', 'exp'],
        });
        if (!payload.sub) throw new Error('token has no sub');
        return payload as JWTPayload & { sub: string };
      },
    };
  }
  if (!auth.jwtSecret) throw new ConfigError('AUTH_JWT_SECRET or AUTH_JWKS_URL must be set');
  const key = new TextEncoder().encode(auth.jwtSecret);
  return {
    async verify(token) {
      const { jwtVerify } = await loadJose();
      const { payload } = await jwtVerify(token, key, {
        ...options,
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp'],
      });
      if (!payload.sub) throw new Error('token has no sub');
      return payload as JWTPayload & { sub: string };
    },
  };
}

/** Issues a development access token (the `npm run token` command and tests). */
export async function issueAccessToken(
  auth: AuthSettings['auth'],
  subject: string,
  email: string | null,
  ttl = '24h',
): Promise<string> {
  if (!auth.jwtSecret) throw new ConfigError('AUTH_JWT_SECRET must be set to issue tokens');
  const { SignJWT } = await loadJose();
  let jwt = new SignJWT({ email: email ?? undefined, role: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(ttl);
  if (auth.issuer) jwt = jwt.setIssuer(auth.issuer);
  if (auth.audience) jwt = jwt.setAudience(auth.audience);
  return jwt.sign(new TextEncoder().encode(auth.jwtSecret));
}
