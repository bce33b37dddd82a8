/**
 * The demo shop's cart, kept in the shopper's browser as one cookie: each line is the signed cart token and the path
 * of the page that edits it. Nothing in it is trusted: every token is verified again whenever the cart is shown.
 */

/** One line of the demo cart as stored. */
export interface StoredCartLine {
  token: string;
  /** Path and query of the product page on the shop's own origin (the fragment is rebuilt from the token's id). */
  editPath: string | null;
}

const DEMO_CART_COOKIE = 'demo_shop_cart';
/** A browser keeps about 4 KB per cookie; a token is about 600 characters. */
export const MAX_CART_LINES = 5;
/** As long as a cart token lives by default (`CART_TOKEN_TTL`, 7 days). */
const COOKIE_MAX_AGE_S = 7 * 24 * 3600;
/** A compact JWS: three base64url parts. */
const TOKEN_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

// Lines are `token:path` joined by `|`: neither character occurs in a token or an encodeURIComponent'd path.
export function readCartCookie(header: string | undefined): StoredCartLine[] {
  const pair = (header ?? '').split(/;\s*/).find((part) => part.startsWith(`${DEMO_CART_COOKIE}=`));
  if (!pair) return [];
  return pair
    .slice(DEMO_CART_COOKIE.length + 1)
    .split('|')
    .flatMap((line) => {
      const [token, path] = line.split(':');
      if (!TOKEN_SHAPE.test(token ?? '')) return [];
      let editPath: string | null = null;
      try {
        editPath = path ? decodeURIComponent(path) : null;
      } catch {
        // A damaged path only loses the line's edit link.
      }
      return [{ token, editPath: editPath?.startsWith('/') ? editPath : null }];
    })
    .slice(-MAX_CART_LINES);
}

/** The Set-Cookie value for these lines (an empty cart clears the cookie). */
export function cartCookie(lines: StoredCartLine[], secure: boolean): string {
  const value = lines
    .map(({ token, editPath }) => `${token}:${editPath ? encodeURIComponent(editPath) : ''}`)
    .join('|');
  const attributes = ['Path=/demo/shop', 'HttpOnly', 'SameSite=Lax', `Max-Age=${lines.length ? COOKIE_MAX_AGE_S : 0}`];
  if (secure) attributes.push('Secure');
  return [`${DEMO_CART_COOKIE}=${value}`, ...attributes].join('; ');
}

/** Whether a string looks like a compact JWS at all (the rest is the verifier's job). */
export const isTokenShaped = (value: string) => value.length <= 4096 && TOKEN_SHAPE.test(value);
