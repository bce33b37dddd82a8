import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { failingDependencies } from '../core/platform/dependency-health.js';

const Healthy = Type.Object({ success: Type.Literal(true), status: Type.Literal('ok') });
const Degraded = Type.Object({
  success: Type.Literal(false),
  error: Type.Literal('unavailable'),
  message: Type.String(),
  status: Type.Literal('degraded'),
  failing: Type.Array(Type.Union([Type.Literal('postgres'), Type.Literal('redis'), Type.Literal('storage')])),
});

/**
 * `GET /health` (Postgres and Redis; docs/architecture.md, Health and shutdown) and `GET /ready` (plus storage). A
 * closing process answers 503 (`return503OnClosing`) so a load balancer stops sending before it goes.
 */
export default async function healthRoutes(app: FastifyInstance) {
  const schema = (summary: string) => ({
    tags: ['meta'],
    summary,
    security: [],
    response: { 200: Healthy, 503: Degraded },
  });

  async function answer(request: FastifyRequest, reply: FastifyReply, withStorage: boolean) {
    const failing = await failingDependencies(
      { db: app.deps.db, redis: app.deps.redis, storage: withStorage ? app.deps.storage : undefined },
      { timeoutMs: 2000 },
    );
    if (failing.length === 0) return { success: true, status: 'ok' };
    request.log.warn({ failing }, 'health check: dependencies do not answer');
    return reply.code(503).send({
      success: false,
      error: 'unavailable',
      message: `Unavailable: ${failing.join(', ')}`,
      status: 'degraded',
      failing,
    });
  }

  // Load balancers ask every few seconds: a healthy answer is not worth a log line each time
  // (the route logs at warn and above), a degraded one is.
  app.get('/health', { schema: schema('Whether Postgres and Redis answer.'), logLevel: 'warn' }, (request, reply) =>
    answer(request, reply, false),
  );
  app.get(
    '/ready',
    {
      schema: schema(
        'Whether this process should get traffic: Postgres, Redis and file storage answer, and it is not shutting ' +
          'down.',
      ),
      logLevel: 'warn',
    },
    (request, reply) => answer(request, reply, true),
  );
}
