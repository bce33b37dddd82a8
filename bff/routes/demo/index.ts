import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import shopCartRoutes from './shop-cart.js';

/** Options of the demo routes. */
export interface DemoRouteOptions {
  /** The demo pages (static HTML and JS). */
  root: string;
  /** The configurator's server: the demo shop verifies cart tokens against its JWKS. */
  upstream: string;
  /** `PUBLIC_ANON_KEY`, for reading a cart line's stored configuration. */
  publicKey: string;
}

/**
 * The QA pages at `/demo/` (`/demo` redirects there, so the pages' relative links resolve), and the demo shop's cart
 * at `/demo/shop/cart`.
 */
export default async function demoRoutes(app: FastifyInstance, { root, upstream, publicKey }: DemoRouteOptions) {
  await app.register(fastifyStatic, { root, prefix: '/demo', redirect: true, decorateReply: false });
  await app.register(shopCartRoutes, { upstream, publicKey });
}
