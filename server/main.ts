import { loadConfig } from './core/config.js';
import { applyMigrations } from './core/db/client.js';
import { buildApp } from './app.js';
import { closeDeps, createDeps } from './deps.js';

/** The server process: migrate, listen, close gracefully on SIGTERM/SIGINT. */
const config = loadConfig();
const deps = createDeps(config);
await applyMigrations(deps.db);
const app = await buildApp(deps);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => process.exit(1), 10_000).unref();
  await app.close();
  await closeDeps(deps);
  clearTimeout(timer);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
