/**
 * A ceiling on work in progress in this process, weighed by cost (bytes of a body, say). Not a queue: past
 * it the caller refuses at once (503), so a burst of large requests cannot pile up in memory.
 */
export interface CapacityLimit {
  /** A release function (idempotent) when `amount` still fits, else null. */
  tryAcquire(amount: number): (() => void) | null;
  /** Capacity taken right now. */
  readonly inUse: number;
}

export function createCapacityLimit(capacity: number): CapacityLimit {
  let inUse = 0;
  return {
    tryAcquire(amount) {
      if (inUse + amount > capacity) return null;
      inUse += amount;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inUse -= amount;
      };
    },
    get inUse() {
      return inUse;
    },
  };
}
