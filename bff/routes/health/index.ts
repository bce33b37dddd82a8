import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withTimeout } from '#core/platform/deadline.js';
import { errorBody } from '../../error-body.js';

/** Options of the health route. */
export interface HealthRouteOptions {
  /** The server the BFF fronts (`BFF_UPSTREAM_URL`). */
  upstream: string;
  /** How long the server and Redis may each take to answer, in ms (default 2000). */
  timeoutMs?: number;
}

/** What the server names as failing (postgres, redis), or `server` when it does not answer in time. */
async function upstreamFailing(upstream: string, path: '/health' | '/ready', timeoutMs: number): Promise<string[]> {
  try {
    const health = await withTimeout(
      async (signal) => {
        const res = await fetch(`${upstream}${path}`, { signal });
        return { status: res.status, body: (await res.json().catch(() => ({}))) as { failing?: unknown } };
      },
      timeoutMs,
      'the server did not answer its health check in time',
    );
    if (health.status === 200) return [];
    // The server names what it is missing; pass that on.
    const named = health.body.failing;
    return Array.isArray(named) && named.length > 0 ? named.map(String) : ['server'];
  } catch {
    // Unreachable or too slow: the server is what is failing.
    return ['server'];
  }
}

/**
 * `GET /health` for the load balancer: 503 naming what fails unless the server and the BFF's own
 * Redis (read budget, cache invalidation) answer. `GET /ready` relays the server's /ready.
 */
export default async function healthRoutes(app: FastifyInstance, { upstream, timeoutMs = 2000 }: HealthRouteOptions) {
  const check = (path: '/health' | '/ready') => async (request: FastifyRequest, reply: FastifyReply) => {
    const [server, redis] = await Promise.all([
      upstreamFailing(upstream, path, timeoutMs),
      withTimeout(() => app.redis.ping(), timeoutMs, 'redis timed out').then(
        () => [],
        () => ['redis'],
      ),
    ]);
    const failing = [...new Set([...server, ...redis])];
    if (failing.length === 0) return { success: true, status: 'ok' };
    request.log.warn({ failing }, 'health check: a dependency is not healthy');
    return reply
      .code(503)
      .send({ ...errorBody('unavailable', `Unavailable: ${failing.join(', ')}`), status: 'degraded', failing });
  };
  // Probed every few seconds: a healthy answer is not worth a log line each time (warn and above only).
  app.get('/health', { logLevel: 'warn' }, check('/health'));
  app.get('/ready', { logLevel: 'warn' }, check('/ready'));
}
