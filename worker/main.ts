import { exitOnConfigError } from '#core/platform/config/settings.js';
import { loadWorkerConfig } from './config.js';
import { applyMigrations, createDb } from '#core/platform/db/client.js';
import { createLogger } from '#core/platform/log.js';
import { assertStorageUsable, createStorage } from '#core/platform/storage/index.js';
import { exitGracefullyOnSignals, exitOnListenError } from '#core/platform/shutdown.js';
import { startWorker, type WorkerApp } from './app.js';
import { startHealthServer } from './health-server.js';

/**
 * The worker process. Migrates so it can start before the server; on SIGTERM hands back jobs not done
 * in SHUTDOWN_TIMEOUT_MS and exits 1 if any were. A bad setting: one line on stderr, exit 1.
 */
try {
  const config = loadWorkerConfig();
  const log = createLogger(config.logLevel, { process: 'worker' });

  let app: WorkerApp | null = null;
  let health: { close(): Promise<void> } | null = null;
  // A signal during start-up: no job has been taken yet worth waiting for.
  exitGracefullyOnSignals(
    async () => {
      await health?.close();
      return app ? app.close() : true;
    },
    { name: 'worker', timeoutMs: config.shutdownTimeoutMs + 3000, log },
  );

  const migrationDb = createDb(config.migrationDatabaseUrl, 1);
  await applyMigrations(migrationDb);
  await migrationDb.$client.end();

  // Before any job is taken: a store that cannot be used stops the worker with one line.
  const storage = createStorage(config);
  await assertStorageUsable(storage).finally(() => storage.close());

  app = await startWorker(config, { log });
  const started = await startHealthServer(app.deps).catch((error: unknown) =>
    exitOnListenError(
      error,
      'the worker health port',
      `${config.worker.healthHost}:${config.worker.healthPort}`,
      'WORKER_HEALTH_PORT',
      log,
    ),
  );
  health = started;
  // Unset WORKER_HEALTH_PORT picks a free port: this line is where probes learn it.
  log.info({ healthPort: started.port, healthUrl: started.url }, `worker health on ${started.url}`);
  log.info(
    { pid: process.pid, concurrency: config.worker.concurrency, prefix: config.queuePrefix, healthPort: started.port },
    'worker ready',
  );
} catch (error) {
  exitOnConfigError('worker', error);
  throw error;
}
