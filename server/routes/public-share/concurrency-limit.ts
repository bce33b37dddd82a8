/**
 * A ceiling on work in progress in this process, for work that is expensive in memory or CPU
 * (scrypt, large bodies). Not a queue: past the ceiling the caller refuses at once (503 with
 * Retry-After), so a burst cannot pile up waiting requests.
 */
export interface ConcurrencyLimit {
  /** A release function (idempotent) when a slot is free, else null. */
  tryAcquire(): (() => void) | null;
  /** Slots taken right now. */
  readonly inUse: number;
}

export function createConcurrencyLimit(max: number): ConcurrencyLimit {
  let inUse = 0;
  return {
    tryAcquire() {
      if (inUse >= max) return null;
      inUse++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inUse--;
      };
    },
    get inUse() {
      return inUse;
    },
  };
}
