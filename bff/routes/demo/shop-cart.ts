import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ownOrigin } from '../../services/own-origin.js';
import { createDemoCart, type CartForm, type DemoCartOptions } from '../../services/demo-cart.js';
import { cartCookie, readCartCookie, type StoredCartLine } from '../../services/demo-cart-cookie.js';
import { renderShopCartPage, type ShopPageInput } from '../../services/demo-shop-page.js';

/** The element's four fields and a little room: a form body is never larger. */
const FORM_BODY_LIMIT = 16 * 1024;
const CART_PATH = '/demo/shop/cart';

/** Where the page may load pictures from: the configurator server's signed file URLs are on another origin. */
const PAGE_POLICY = [
  "default-src 'self'",
  'img-src * data:',
  "style-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The demo shop's cart (demo/README.md): `POST /demo/shop/cart` takes the element's form POST (`cart.action` of the
 * demo stool), verifies the token against the configurator server's JWKS and keeps the line;
 * `GET /demo/shop/cart` shows the cart; `POST /demo/shop/cart/remove` takes a line out.
 */
export default async function shopCartRoutes(app: FastifyInstance, options: DemoCartOptions) {
  const cart = createDemoCart(options);

  // Only in this plugin: the element posts a plain HTML form.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const secure = (request: FastifyRequest) => request.protocol === 'https';
  const stored = (request: FastifyRequest) => readCartCookie(request.headers.cookie);

  async function page(reply: FastifyReply, status: number, lines: StoredCartLine[], extra: Partial<ShopPageInput>) {
    const shown = await cart.show(lines);
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('set-cookie', cartCookie(shown.kept, secure(reply.request)))
      .header('cache-control', 'no-store')
      .header('content-security-policy', PAGE_POLICY)
      .header('referrer-policy', 'same-origin')
      .header('x-content-type-options', 'nosniff')
      .send(
        renderShopCartPage({ ...extra, lines: shown.lines, notices: [...shown.notices, ...(extra.notices ?? [])] }),
      );
  }

  app.get(CART_PATH, { schema: { hide: true } }, async (request, reply) => {
    const added = (request.query as Record<string, unknown>).added;
    return page(reply, 200, stored(request), { added: typeof added === 'string' ? added : undefined });
  });

  app.post(CART_PATH, { schema: { hide: true } }, async (request, reply) => {
    const origin = ownOrigin(request.protocol, request.host) ?? '';
    const result = await cart.add(stored(request), (request.body ?? {}) as CartForm, origin);
    if ('error' in result) return page(reply, result.status, stored(request), { error: result.error });
    // Post/Redirect/Get: a reload of the cart page does not post the line again.
    return reply
      .code(303)
      .header('set-cookie', cartCookie(result.lines, secure(request)))
      .header('location', `${CART_PATH}?added=${encodeURIComponent(result.added)}`)
      .send();
  });

  app.post(`${CART_PATH}/remove`, { schema: { hide: true } }, async (request, reply) => {
    const lines = await cart.remove(stored(request), (request.body as Record<string, unknown> | null)?.line);
    return reply
      .code(303)
      .header('set-cookie', cartCookie(lines, secure(request)))
      .header('location', CART_PATH)
      .send();
  });
}
