import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { tooManyRequests } from '../core/domain/errors.js';

/**
 * @fastify/rate-limit on Redis so instances share counters; it runs in preHandler, after the route's own
 * onRequest checks (credentials first: docs/api.md, Public read). Redis trouble fails open so the shop stays online.
 */
export default fp(async function rateLimits(app: FastifyInstance) {
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    redis: app.deps.redis,
    nameSpace: `${app.deps.config.queuePrefix}:rl:`,
    skipOnError: true,
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return tooManyRequests(seconds, `Too many requests, retry in ${seconds} s.`);
    },
  });
});
