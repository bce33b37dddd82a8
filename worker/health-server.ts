import Fastify, { LogController } from 'fastify';
import { failingDependencies } from '#core/platform/dependency-health.js';
import type { WorkerDeps } from './jobs/define-job.js';

/**
 * `/health` (Postgres, Redis) and `/ready` (plus storage) for orchestrators; closed first on shutdown
 * so probes see the worker going.
 */
export async function startHealthServer(
  deps: Pick<WorkerDeps, 'db' | 'producerRedis' | 'storage' | 'log' | 'config'>,
): Promise<{ close(): Promise<void>; port: number; url: string }> {
  const app = Fastify({
    loggerInstance: deps.log.child({ part: 'health' }),
    logController: new LogController({ disableRequestLogging: true }),
  });
  const answer =
    (withStorage: boolean) =>
    async (_request: unknown, reply: { code(status: number): { send(body: unknown): unknown } }) => {
      const failing = await failingDependencies({
        db: deps.db,
        redis: deps.producerRedis,
        storage: withStorage ? deps.storage : undefined,
      });
      if (failing.length === 0) return { success: true, status: 'ok' };
      return reply.code(503).send({
        success: false,
        error: 'unavailable',
        message: `Unavailable: ${failing.join(', ')}`,
        status: 'degraded',
        failing,
      });
    };
  app.get('/health', answer(false));
  app.get('/ready', answer(true));
  const { healthPort, healthHost } = deps.config.worker;
  await app.listen({ port: healthPort, host: healthHost });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : healthPort;
  // A wildcard address is reached through loopback; an IPv6 one needs brackets in a URL.
  const shown = healthHost === '0.0.0.0' ? '127.0.0.1' : healthHost === '::' ? '::1' : healthHost;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/health`;
  return { close: () => app.close(), port, url };
}
