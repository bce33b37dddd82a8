import type { FastifyInstance } from 'fastify';
import readRoutes from './read.js';
import modelUrlRoutes from './model-urls.js';
import submitRoutes from './submit.js';

/**
 * The public share surface: GET /share/:projectId/:token, POST .../model-urls, POST .../submit.
 * One encapsulated context so CORS and the public-key check apply to exactly these routes.
 * PLACEHOLDER: the public key hook and CORS are added by the sharing work.
 */
export default async function publicShareRoutes(app: FastifyInstance) {
  await app.register(readRoutes);
  await app.register(modelUrlRoutes);
  await app.register(submitRoutes);
}
