import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { TimeoutError, withTimeout } from '#core/platform/deadline.js';

/** The one timing helper (jobs, health checks, the DNS guard, shutdowns): settles once, leaves no timer. */

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

  it("rejects with the caller's reason when its signal aborts first; with no limit, only it ends", async () => {
    const caller = new AbortController();
    let signal: AbortSignal | undefined;
    const before = timers();
    const running = withTimeout(
      (s) => {
        signal = s;
        return new Promise(() => {});
      },
      Infinity,
      'late',
      caller.signal,
    );
    expect(timers()).toBe(before);
    caller.abort(new Error('shutting down'));
    await expect(running).rejects.toThrow('shutting down');
    expect(signal?.aborted).toBe(true);
    const already = new AbortController();
    already.abort(new Error('gone'));
    await expect(withTimeout(async () => 'late', 60_000, 'late', already.signal)).rejects.toThrow('gone');
    expect(timers()).toBe(before);
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
