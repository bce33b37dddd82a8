import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadServerConfig } from '../../server/config.js';
import { closeDeps, createDeps, type AppDeps } from '../../server/deps.js';
import { buildBffApp } from '../../bff/app.js';
import { loadBffConfig } from '../../bff/config.js';
import { createTestEnv, TEST_SECRETS, type TestEnv } from '../helpers/test-env.js';
import { captureLogs } from '../helpers/log-lines.js';
import { waitForRedis } from '#core/platform/redis.js';

/** Load balancers probe /health every few seconds: healthy answers leave no request log lines. */

const requestLines = (entries: Array<Record<string, unknown>>, url: string) =>
  entries.filter(
    (entry) => (entry.req as { url?: string } | undefined)?.url === url || entry.msg === 'request completed',
  );

describe('health probes in the logs', () => {
  let env: TestEnv;
  let deps: AppDeps;
  let app: FastifyInstance;
  const logs = captureLogs();

  beforeAll(async () => {
    env = await createTestEnv();
    deps = createDeps(loadServerConfig(env.env));
    app = await buildApp(deps, { logger: { level: 'info', stream: logs.stream } });
    // The request-path Redis client fails fast while it connects: wait for it, as main.ts does.
    await waitForRedis(deps.redis);
  });

  afterAll(async () => {
    await app.close();
    await closeDeps(deps);
    await env.cleanup();
  });

  it('the server logs other requests at info, and healthy /health probes not at all', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect(requestLines(logs.entries, '/health')).toEqual([]);
    await app.inject({ method: 'GET', url: '/version' });
    expect(requestLines(logs.entries, '/version').length).toBeGreaterThan(0);
  });

  it('the BFF: a healthy probe leaves no line, an unhealthy one a warning', async () => {
    const unhealthy = await buildBffApp(
      loadBffConfig({ ...TEST_SECRETS, BFF_UPSTREAM_URL: 'http://127.0.0.1:1', LOG_LEVEL: 'info' }),
      {
        logger: { level: 'info', stream: logs.stream },
        healthTimeoutMs: 500,
      },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const healthy = await buildBffApp(
      loadBffConfig({ ...TEST_SECRETS, BFF_UPSTREAM_URL: app.listeningOrigin, LOG_LEVEL: 'info' }),
      {
        logger: { level: 'info', stream: logs.stream },
      },
    );
    try {
      logs.entries.length = 0;
      expect((await healthy.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect(logs.entries).toEqual([]);
      expect((await unhealthy.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503);
      expect(logs.entries).toMatchObject([{ level: 40, failing: ['server'] }]);
    } finally {
      await healthy.close();
      await unhealthy.close();
    }
  });
});
