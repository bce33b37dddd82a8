import { exitOnConfigError } from './core/platform/config/settings.js';
import { loadServerConfig } from './config.js';
import { applyMigrations, createDb } from './core/platform/db/client.js';
import { exitGracefullyOnSignals, exitOnListenError } from './core/platform/shutdown.js';
import { waitForRedis } from './core/platform/redis.js';
import { buildApp } from './app.js';
import { assertStorageUsable } from './core/platform/storage/index.js';
import { closeDeps, createDeps } from './deps.js';

/**
 * The server process: migrate, listen, close gracefully on SIGTERM/SIGINT. A bad or missing
 * setting stops it with one line on stderr and exit code 1; other failures keep their stack.
 */
try {
  const config = loadServerConfig();
  const deps = createDeps(config);
  const migrationDb = createDb(config.migrationDatabaseUrl, 1);
  // Independent waits, overlapped: building the app touches neither the schema nor storage, and
  // nothing listens until all are done.
  const [app, , , redisReady] = await Promise.all([
    buildApp(deps),
    assertStorageUsable(deps.storage),
    applyMigrations(migrationDb).finally(() => migrationDb.$client.end()),
    waitForRedis(deps.redis),
  ]);
  if (!redisReady)
    app.log.warn('Redis does not answer yet: rate limits fail open and submits wait for the relay until it does');
  exitGracefullyOnSignals(
    async () => {
      // Stops accepting, answers new requests on open connections with 503, and waits for the
      // requests in flight; then the pools.
      await app.close();
      await closeDeps(deps);
    },
    { name: 'server', timeoutMs: config.shutdownTimeoutMs, log: app.log },
  );

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    exitOnListenError(error, 'the server', `${config.host}:${config.port}`, 'PORT', app.log);
  }
} catch (error) {
  exitOnConfigError('server', error);
  throw error;
}
