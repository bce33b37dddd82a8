import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import path from 'node:path';

/** Options of the element routes. */
export interface ElementRouteOptions {
  /** The built element (`npm run build`): `config-share.js` and hashed chunks in `assets/`. */
  root: string;
}

/** Hashed chunks never change under their name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The entry keeps its name across releases: short-lived, revalidated with its ETag. */
const ENTRY = 'public, max-age=300';

/**
 * The element bundle at `/element/`, CORS-open for any merchant page (docs/bff.md). Without
 * a build the BFF still starts and answers 404; a later build is served without a restart.
 */
export default async function elementRoutes(app: FastifyInstance, { root }: ElementRouteOptions) {
  app.addHook('onRequest', async (_request, reply) => {
    // Set first, so a 404 for a missing file carries them too.
    reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
  });
  await app.register(fastifyStatic, {
    root,
    prefix: '/element/',
    decorateReply: false,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const hashed = path.relative(root, filePath).split(path.sep)[0] === 'assets';
      reply.header('cache-control', hashed ? IMMUTABLE : ENTRY);
    },
  });
}
