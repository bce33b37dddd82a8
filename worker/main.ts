import { exitOnConfigError } from '../server/core/platform/config/settings.js';
import { loadWorkerConfig } from './config.js';
import { applyMigrations, createDb } from '../server/core/platform/db/client.js';
import { createLogger } from '../server/core/platform/log.js';
import { exitGracefullyOnSignals } from '../server/core/platform/shutdown.js';
import { SHUTDOWN_TIMEOUT_MS, startWorker, type WorkerApp } from './app.js';

/**
 * The worker process: migrate (so it can start before the server), run every BullMQ worker and
 * the outbox relay, and on SIGTERM/SIGINT stop taking jobs, let active ones finish (at most
 * SHUTDOWN_TIMEOUT_MS), close every connection and exit 0 (1 when jobs had to be abandoned).
 * A bad or missing setting stops it with one line on stderr and exit code 1; other failures keep
 * their stack.
 */
try {
  const config = loadWorkerConfig();
  const log = createLogger(config.logLevel, { process: 'worker' });

  let app: WorkerApp | null = null;
  // A signal during start-up: no job has been taken yet worth waiting for.
  exitGracefullyOnSignals(async () => (app ? app.close(SHUTDOWN_TIMEOUT_MS) : true), { name: 'worker', timeoutMs: SHUTDOWN_TIMEOUT_MS + 5000, log });

  const migrationDb = createDb(config.databaseUrl, 1);
  await applyMigrations(migrationDb);
  await migrationDb.$client.end();

  app = await startWorker(config, { log });
  log.info({ pid: process.pid, concurrency: config.worker.concurrency, prefix: config.queuePrefix }, 'worker ready');
} catch (error) {
  exitOnConfigError('worker', error);
  throw error;
}
