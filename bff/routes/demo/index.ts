import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Options of the demo routes. */
export interface DemoRouteOptions {
  /** The demo pages (static HTML and JS). */
  root: string;
}

/** The QA pages at `/demo/` (`/demo` redirects there, so the pages' relative links resolve). */
export default async function demoRoutes(app: FastifyInstance, { root }: DemoRouteOptions) {
  await app.register(fastifyStatic, { root, prefix: '/demo', redirect: true, decorateReply: false });
}
