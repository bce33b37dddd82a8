import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { TimeoutError, withTimeout } from '../../../server/core/platform/deadline.js';

/** The deadline helper of the health checks and the DNS guard: settles once, leaves no timer. */

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('withTimeout', () => {
  it('answers what the work answers and clears its timer at once', async () => {
    const before = timers();
    await expect(withTimeout(async () => 'pong', 60_000, 'late')).resolves.toBe('pong');
    await expect(withTimeout(async () => Promise.reject(new Error('refused')), 60_000, 'late')).rejects.toThrow(
      'refused',
    );
    expect(timers()).toBe(before);
  });

  it('rejects with a TimeoutError when the work is slower, and aborts the signal it handed over', async () => {
    let signal: AbortSignal | undefined;
    const started = Date.now();
    const late = withTimeout(
      (s) => {
        signal = s;
        return new Promise(() => {});
      },
      50,
      'late',
    );
    await expect(late).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(TimeoutError);
  });

  it('cancels a fetch that takes the signal', async () => {
    const server = createServer(() => {}); // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      await expect(
        withTimeout((signal) => fetch(`http://127.0.0.1:${port}/`, { signal }), 100, 'late'),
      ).rejects.toBeInstanceOf(TimeoutError);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
