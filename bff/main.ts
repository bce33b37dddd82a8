import { loadConfig } from '../server/core/config.js';
import { buildBffApp } from './app.js';

/** The BFF process: listen, close gracefully on SIGTERM/SIGINT. */
const config = loadConfig();
const app = await buildBffApp(config);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => process.exit(1), 10_000).unref();
  await app.close();
  clearTimeout(timer);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ port: config.bffPort, host: config.bffHost });
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    app.log.fatal(`BFF_PORT ${config.bffPort} on ${config.bffHost} is already in use: stop what runs there or set BFF_PORT.`);
  } else {
    app.log.fatal({ err: error }, 'the BFF could not start');
  }
  process.exit(1);
}
