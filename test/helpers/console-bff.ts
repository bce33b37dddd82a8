import { startTsProcess, type ChildProcessHandle } from './child-process.js';
import type { TestServer } from './test-server.js';
import { waitFor } from '../worker/submission-fixtures.js';

/**
 * A BFF process on `port` in front of `server`, serving the built element and owner console as in production;
 * `ready` settles once its /health answers 200 (awaited beside the test's other start-up work).
 */
export function startConsoleBff(
  server: TestServer,
  port: number,
): { bff: ChildProcessHandle; ready: Promise<unknown> } {
  const bff = startTsProcess('bff/main.ts', {
    ...server.env.env,
    BFF_PORT: String(port),
    BFF_UPSTREAM_URL: server.url,
    LOG_LEVEL: 'warn',
  });
  const ready = waitFor(
    () =>
      fetch(`http://127.0.0.1:${port}/health`).then(
        (res) => res.status === 200,
        () => false,
      ),
    'the BFF',
    60_000,
  );
  return { bff, ready };
}
