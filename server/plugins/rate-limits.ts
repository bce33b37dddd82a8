import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { tooManyRequests } from '../core/domain/errors.js';

/**
 * @fastify/rate-limit on Redis, so every instance shares the counters. Routes opt in with
 * `config.rateLimit`; it runs in preHandler, after the route's own onRequest checks (the public
 * key, authentication), as the contract orders them. Redis trouble fails open: a broken cache
 * must not take the shop offline.
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
