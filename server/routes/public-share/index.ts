import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireSetting } from '../../core/platform/config/settings.js';
import { unauthorized } from '../../core/domain/errors.js';
import { secretMatcher } from '../../core/services/public-share/share-access.js';
import {
  createReadBudget,
  readBudgetExceeded,
  readBudgetHeaders,
} from '../../core/services/public-share/read-budget.js';
import type { PublicShareRouteOptions } from './share-request.js';
import readRoutes from './read.js';
import modelUrlRoutes from './model-urls.js';
import submitRoutes from './submit.js';
import visitorEventRoutes from './events.js';
import configurationRoutes from './configurations.js';
import { bearerToken } from '../../plugins/auth.js';
import { publicCorsHeaders } from '../../core/http/public-cors.js';

/** What a browser may send to the public routes (docs/api.md, Public read). */
const PUBLIC_ALLOWED_HEADERS = 'apikey, authorization, content-type, if-none-match, x-share-password, idempotency-key';
const ALLOWED_METHODS = 'GET, POST, OPTIONS';

/**
 * The public share routes in one encapsulated context, so CORS and the public-key check apply to exactly these
 * routes and run before each route's rate limit and share checks.
 */
export default async function publicShareRoutes(app: FastifyInstance) {
  const { config } = app.deps;
  const publicKey = requireSetting(config.publicAnonKey, 'PUBLIC_ANON_KEY');
  const matchesPublicKey = secretMatcher(publicKey);
  const isPublicKey = (value: string | undefined) => value !== undefined && matchesPublicKey(value);

  app.addHook('onRequest', async (request, reply) => {
    publicCorsHeaders(request, reply);
    // Preflights carry no credentials; browsers send them on the real request.
    if (request.method === 'OPTIONS') return;
    const apikey = request.headers.apikey;
    const bearer = bearerToken(request.headers.authorization);
    if (!isPublicKey(typeof apikey === 'string' ? apikey : undefined) || !isPublicKey(bearer)) {
      throw unauthorized('invalid_api_key', 'Send the public key in both the apikey header and Authorization: Bearer.');
    }
    // Started now, next to the rate limit's Redis command (the route's own onRequest hook), so
    // both travel in one round trip; the share checks await it.
    request.shareMemoryCheck = app.deps.services.publicShare.shareStates.isCurrent();
  });

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', PUBLIC_ALLOWED_HEADERS)
      .header('access-control-max-age', '600')
      .send();
  app.options('/share/:projectId/:token', { schema: { hide: true } }, preflight);
  app.options('/share/:projectId/:token/:action', { schema: { hide: true } }, preflight);
  app.options('/configurations/:id', { schema: { hide: true } }, preflight);

  // One budget for the read and model-urls (docs/api.md, Public read), and for
  // the BFF's cache hits, which spend the same Redis counter.
  const budget = createReadBudget({
    redis: app.deps.redis,
    prefix: config.queuePrefix,
    rate: config.rateLimits.shareRead,
  });
  const options: PublicShareRouteOptions = {
    readRateLimit: async (request, reply) => {
      const decision = await budget.spend(request.ip);
      if (!decision.allowed) throw readBudgetExceeded(decision);
      if (decision.remaining !== undefined) reply.headers(readBudgetHeaders(decision));
    },
  };
  await app.register(readRoutes, options);
  await app.register(modelUrlRoutes, options);
  await app.register(submitRoutes, options);
  await app.register(visitorEventRoutes);
  await app.register(configurationRoutes);
}
