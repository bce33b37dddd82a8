import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms))]);

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
  app.get('/health', { schema }, async (_request, reply) => {
    const { db, redis } = app.deps;
    const [postgres, cache] = await Promise.allSettled([withTimeout(db.execute(sql`select 1`), 2000), withTimeout(redis.ping(), 2000)]);
    const failing = [postgres.status === 'rejected' ? 'postgres' : null, cache.status === 'rejected' ? 'redis' : null].filter(Boolean);
    if (failing.length === 0) return { success: true, status: 'ok' };
    return reply.code(503).send({ success: false, error: 'unavailable', message: `Unavailable: ${failing.join(', ')}`, status: 'degraded', failing });
  });
}
