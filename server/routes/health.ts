import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { failingDependencies } from '../core/platform/dependency-health.js';

const Healthy = Type.Object({ success: Type.Literal(true), status: Type.Literal('ok') });
const Degraded = Type.Object({
  success: Type.Literal(false),
  error: Type.Literal('unavailable'),
  message: Type.String(),
  status: Type.Literal('degraded'),
  failing: Type.Array(Type.Union([Type.Literal('postgres'), Type.Literal('redis')])),
});

/** Liveness of the parts the API cannot work without: Postgres and Redis. */
export default async function healthRoutes(app: FastifyInstance) {
  const schema = { tags: ['meta'], summary: 'Whether Postgres and Redis answer (for load balancers).', security: [], response: { 200: Healthy, 503: Degraded } };
  // Load balancers ask every few seconds: a healthy answer is not worth a log line each time
  // (the route logs at warn and above), a degraded one is.
  app.get('/health', { schema, logLevel: 'warn' }, async (request, reply) => {
    const failing = await failingDependencies(app.deps, { timeoutMs: 2000 });
    if (failing.length === 0) return { success: true, status: 'ok' };
    request.log.warn({ failing }, 'health check: dependencies do not answer');
    return reply.code(503).send({ success: false, error: 'unavailable', message: `Unavailable: ${failing.join(', ')}`, status: 'degraded', failing });
  });
}
