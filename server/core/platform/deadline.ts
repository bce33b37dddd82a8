/**
 * Time limits that leave nothing behind: the timer is cleared as soon as the work settles, so a
 * finished call never keeps the process alive or fires late. The work gets an AbortSignal that
 * aborts when time is up, so it can stop what it started (a pool task, a fetch).
 */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * Runs `work` with a signal that aborts with TimeoutError (`message`) once `ms` have passed, or
 * with `signal`'s reason when that (a caller's own cancellation) aborts first. The work decides
 * what an abort means (several calls may each give up on their own); `withTimeout` gives up on
 * all of it.
 */
export async function withDeadline<T>(
  work: (signal: AbortSignal) => Promise<T>,
  ms: number,
  message: string,
  signal?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(() => controller.abort(new TimeoutError(message)), ms);
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

/** `work` under `withDeadline`, rejected with the abort's reason as soon as the signal aborts. */
export function withTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  ms: number,
  message: string,
  signal?: AbortSignal,
): Promise<T> {
  return withDeadline((deadline) => untilAborted(work(deadline), deadline), ms, message, signal);
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts (the promise runs on, unobserved). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Whether `promise` settled within `ms`: true when it resolved in time, false when it failed or took longer. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return withTimeout(() => promise, ms, 'timeout').then(
    () => true,
    () => false,
  );
}
