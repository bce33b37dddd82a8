import net from 'node:net';
import { StartError } from './start-error.js';

/** Whether nothing listens on host:port right now (checked by binding it briefly). */
export function isPortFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** `preferred` when it is free, else the next free port after it (up to 50 further on), else any. */
export async function pickPort(preferred: number, host = '127.0.0.1'): Promise<number> {
  for (let port = preferred; port < preferred + 50; port++) {
    if (await isPortFree(port, host)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls until `check` resolves true, or rejects after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new StartError(`${what} did not come up within ${Math.round(timeoutMs / 1000)} s`);
}
