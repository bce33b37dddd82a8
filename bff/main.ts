import { exitOnConfigError } from '#core/platform/config/settings.js';
import { loadBffConfig } from './config.js';
import { exitGracefullyOnSignals, exitOnListenError } from '#core/platform/shutdown.js';
import { buildBffApp } from './app.js';

/**
 * The BFF process: listen, close gracefully on SIGTERM/SIGINT. A bad or missing setting stops it
 * with one line on stderr and exit code 1; other failures keep their stack.
 */
try {
  const config = loadBffConfig();
  const app = await buildBffApp(config);
  exitGracefullyOnSignals(() => app.close(), { name: 'bff', timeoutMs: config.shutdownTimeoutMs, log: app.log });

  try {
    await app.listen({ port: config.bffPort, host: config.bffHost });
  } catch (error) {
    exitOnListenError(error, 'the BFF', `${config.bffHost}:${config.bffPort}`, 'BFF_PORT', app.log);
  }
} catch (error) {
  exitOnConfigError('bff', error);
  throw error;
}
