import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Options of the viewer asset routes. */
export interface ViewerRouteOptions {
  /** The share page's stylesheet and preview image (`bff/viewer/`). */
  root: string;
}

/**
 * The share page's own files at `/viewer/` (docs/share-page.md): its stylesheet (the CSP allows no
 * inline style) and the link-preview card, loadable from anywhere because chat apps fetch it.
 */
export default async function viewerRoutes(app: FastifyInstance, { root }: ViewerRouteOptions) {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });
  await app.register(fastifyStatic, {
    root,
    prefix: '/viewer/',
    decorateReply: false,
    cacheControl: false,
    setHeaders: (reply) => reply.header('cache-control', 'public, max-age=3600'),
  });
}
