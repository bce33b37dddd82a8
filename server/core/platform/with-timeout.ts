/** The rejection of {@link withTimeout} when the time runs out first. */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * Runs `work` and settles as it does, or rejects with a {@link TimeoutError} once `ms` pass
 * first. The signal handed to `work` aborts at that moment, so work that takes one (fetch) is
 * cancelled; work that cannot (pg, ioredis) is abandoned and its late result ignored. The timer
 * is cleared as soon as the result is known and never keeps the process alive, so a health
 * probe per second leaves no timers behind.
 */
export async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => PromiseLike<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError(ms)), ms).unref();
  const timedOut = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  try {
    return await Promise.race([work(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
