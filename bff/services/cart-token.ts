import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { CART_AUDIENCE } from '#core/wire/configurations.js';

/** What a verified cart token says: the configuration, its SKU and quantity, and the price the server signed. */
export interface CartClaims {
  /** The configuration id. */
  sub: string;
  /** The project id. */
  pid: string;
  rev: number;
  sku: string | null;
  qty: number;
  /** One unit's total in minor units; null without pricing (as `total` and `cur`). */
  unit: number | null;
  total: number | null;
  cur: string | null;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/** Why a token is not taken: its time ran out, it is not one of the server's, or the keys could not be read. */
export type CartTokenProblem = 'expired' | 'invalid' | 'keys-unavailable';

export type CartTokenCheck = (token: string) => Promise<{ claims: CartClaims } | { problem: CartTokenProblem }>;

const isNumberOrNull = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value));

/** The claims a shop relies on, with the types docs/cart.md gives them; anything else is not a cart token. */
function cartClaimsOf(payload: Record<string, unknown>): CartClaims | null {
  const { sub, pid, rev, sku, qty, unit, total, cur, exp } = payload;
  const ok =
    typeof sub === 'string' &&
    typeof pid === 'string' &&
    typeof rev === 'number' &&
    (sku === null || typeof sku === 'string') &&
    Number.isInteger(qty) &&
    isNumberOrNull(unit) &&
    isNumberOrNull(total) &&
    (cur === null || typeof cur === 'string') &&
    typeof exp === 'number';
  return ok ? ({ sub, pid, rev, sku, qty, unit, total, cur, exp } as CartClaims) : null;
}

/**
 * Verifies cart tokens as a shop's server does: ES256 against the JWKS at `jwksUrl` (fetched once and cached by
 * jose, again when a token names an unknown key), audience `config-share:cart`, not expired.
 */
export function createCartTokenCheck(jwksUrl: URL): CartTokenCheck {
  const keys = createRemoteJWKSet(jwksUrl, { timeoutDuration: 5000 });
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, { audience: CART_AUDIENCE, algorithms: ['ES256'], typ: 'JWT' });
      const claims = cartClaimsOf(payload);
      return claims ? { claims } : { problem: 'invalid' };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { problem: 'expired' };
      // The key set did not come (no answer: a fetch error; not 200 or not JSON: jose's generic error).
      const keysFailed =
        !(error instanceof errors.JOSEError) ||
        error.code === 'ERR_JOSE_GENERIC' ||
        error instanceof errors.JWKSTimeout ||
        error instanceof errors.JWKSInvalid;
      return { problem: keysFailed ? 'keys-unavailable' : 'invalid' };
    }
  };
}
