/** What a call past its time limit rejects with. */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * Runs `work` with a signal that aborts after `ms` (a TimeoutError) or when `signal` aborts; the answer
 * rejects at once and the timer is always cleared. `ms` Infinity: only `signal` ends it early.
 */
export async function withTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  ms: number,
  message = `took longer than ${ms} ms`,
  signal?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const cancel = () => controller.abort(signal?.reason);
  if (signal?.aborted) cancel();
  else signal?.addEventListener('abort', cancel, { once: true });
  const timer = Number.isFinite(ms) ? setTimeout(() => controller.abort(new TimeoutError(message)), ms) : undefined;
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  try {
    return await Promise.race([aborted, work(controller.signal)]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
}
