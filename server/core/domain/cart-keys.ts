import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * The keys that sign and verify cart tokens (docs/cart.md, "Keys"): one P-256 private key, and the public keys of
 * earlier ones kept in the JWKS after a rotation. Parsed with node:crypto; never logged, never answered.
 */
export interface CartSigningKey {
  key: KeyObject;
  kid: string;
}

/** A public key as the JWKS lists it (RFC 7517), with its RFC 7638 thumbprint as `kid`. */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

const isP256 = (key: KeyObject) =>
  key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';

/** The key's public half as a JWK, its id the RFC 7638 thumbprint (the same key always has the same id). */
function publicJwkOf(key: KeyObject): PublicJwk {
  const publicKey = key.type === 'public' ? key : createPublicKey(key);
  const { crv, x, y } = publicKey.export({ format: 'jwk' }) as { crv: 'P-256'; x: string; y: string };
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv, kty: 'EC', x, y }))
    .digest('base64url');
  return { kty: 'EC', crv, x, y, kid, alg: 'ES256', use: 'sig' };
}

/** `CART_SIGNING_KEY`: a PKCS#8 PEM or a JWK of a P-256 private key; null when it is not one. */
export function parseSigningKey(text: string): CartSigningKey | null {
  try {
    const trimmed = text.trim();
    const key = trimmed.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(trimmed) as never, format: 'jwk' })
      : createPrivateKey({ key: trimmed.replace(/\\n/g, '\n'), format: 'pem' });
    return isP256(key) ? { key, kid: publicJwkOf(key).kid } : null;
  } catch {
    return null;
  }
}

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

/**
 * `CART_SIGNING_KEYS_PREVIOUS`: SPKI PEM blocks one after another, a JSON array of JWKs, or a JWK Set; null when
 * any key in it is not a P-256 public key.
 */
export function parsePreviousKeys(text: string): PublicJwk[] | null {
  try {
    const trimmed = text.trim().replace(/\\n/g, '\n');
    if (trimmed === '') return [];
    let keys: KeyObject[];
    if (trimmed.startsWith('-----')) {
      const blocks = trimmed.match(PEM_BLOCK) ?? [];
      if (blocks.length === 0) return null;
      keys = blocks.map((block) => createPublicKey({ key: block, format: 'pem' }));
    } else {
      const parsed = JSON.parse(trimmed) as unknown;
      const list = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown }).keys;
      if (!Array.isArray(list)) return null;
      // A private key pasted here by mistake is refused (as a private PEM is), never published or kept.
      if (list.some((jwk: unknown) => typeof jwk !== 'object' || jwk === null || 'd' in jwk)) return null;
      // Only the public members reach the JWKS.
      keys = list.map((jwk: { kty?: string; crv?: string; x?: string; y?: string }) =>
        createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } as never, format: 'jwk' }),
      );
    }
    return keys.every(isP256) ? keys.map(publicJwkOf) : null;
  } catch {
    return null;
  }
}

/** The JWKS a shop verifies against: the signing key's public half first, then the previous keys. */
export function cartJwks(signing: CartSigningKey | null, previous: PublicJwk[]): { keys: PublicJwk[] } {
  const keys = signing ? [publicJwkOf(signing.key)] : [];
  for (const key of previous) if (!keys.some((known) => known.kid === key.kid)) keys.push(key);
  return { keys };
}
