/**
 * Group commit: concurrent callers' items go to the database as one statement. No timer, so at rest an item
 * waits only for the current event-loop turn, and under load batches grow while a flush is in progress.
 */
export interface BatcherOptions {
  /** Items per flush (default 100). */
  maxBatch?: number;
  /** Flushes running at once (default 2): one slow statement never stops the others. */
  maxInFlight?: number;
}

/**
 * `flush` answers one result per item, in order. A failed batch is flushed again item by item, so one bad
 * item (a row deleted meanwhile) fails only its caller.
 */
export function createBatcher<In, Out>(flush: (items: In[]) => Promise<Out[]>, options: BatcherOptions = {}) {
  const { maxBatch = 100, maxInFlight = 2 } = options;
  type Waiting = { item: In; resolve(value: Out): void; reject(error: unknown): void };
  let queue: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;

  async function flushAlone(entry: Waiting) {
    try {
      const [result] = await flush([entry.item]);
      entry.resolve(result);
    } catch (error) {
      entry.reject(error);
    }
  }

  async function run(batch: Waiting[]) {
    try {
      const results = await flush(batch.map((entry) => entry.item));
      batch.forEach((entry, i) => entry.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // One at a time: the batch holds one of the `maxInFlight` places until the last is done.
      for (const entry of batch) await flushAlone(entry);
    }
  }

  function pump() {
    scheduled = false;
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  }

  return {
    /** Resolves with this item's result once its batch is flushed. */
    add(item: In): Promise<Out> {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!scheduled && inFlight < maxInFlight) {
          scheduled = true;
          setImmediate(pump);
        }
      });
    },
  };
}
