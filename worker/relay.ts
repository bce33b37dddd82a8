import type { Redis } from 'ioredis';
import { outboxWakeUpChannel } from '../server/core/jobs/outbox.js';
import { dispatchOutbox, type DispatchOptions } from './dispatch-outbox.js';
import type { WorkerDeps } from './deps.js';

export interface OutboxRelayOptions {
  /** Pause between periodic sweeps (OUTBOX_RELAY_INTERVAL_MS, default 2000). */
  intervalMs: number;
  /** Rows per dispatch call (default 500); a full batch is followed by another at once. */
  batchSize?: number;
  /** Hand-overs after which a lost job is given up (default 5). */
  maxEnqueues?: DispatchOptions['maxEnqueues'];
}

export interface OutboxRelay {
  /** One sweep now (also what the timer and a wake-up run); resolves when it is done. */
  sweep(): Promise<number>;
  /** Stops the timer and the subscription and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * The outbox relay: hands BullMQ the outbox rows that are due, at once when a process publishes
 * a wake-up after committing work (createOutboxNudger), and every `intervalMs` for whatever a
 * lost wake-up, a Redis outage or a dead worker left. Several relays may run at once (one per
 * worker process): rows are claimed with SKIP LOCKED and BullMQ absorbs a job id it already has.
 */
export function startOutboxRelay(deps: WorkerDeps, options: OutboxRelayOptions): OutboxRelay {
  const { intervalMs, batchSize = 500, maxEnqueues } = options;
  const { log } = deps;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  /** A wake-up arrived during a sweep: rows committed after its claim need another one. */
  let again = false;

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      again = false;
      const result = await dispatchOutbox(deps, { batchSize, maxEnqueues });
      total += result.sent;
      if (result.gaveUp > 0) log.warn({ gaveUp: result.gaveUp }, 'outbox relay gave up on jobs lost too often');
      // A failure means Redis is in trouble: wait for the next periodic sweep.
      if (stopped || result.failed > 0) return total;
      // A short batch means nothing more is due, unless work was committed meanwhile.
      if (result.claimed < batchSize && !again) return total;
    }
  }

  function sweep(): Promise<number> {
    if (running) again = true;
    running ??= drain()
      .then((sent) => {
        if (sent > 0) log.debug({ sent }, 'outbox relay enqueued jobs');
        return sent;
      })
      .catch((error: unknown) => {
        log.warn({ err: error }, 'outbox relay sweep failed');
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      void sweep().finally(schedule);
    }, intervalMs);
  }

  // Its own connection: a subscribed client can do nothing else. Resubscribes after reconnects.
  const subscriber: Redis = deps.workerRedis.duplicate();
  subscriber.on('error', () => {});
  subscriber.on('message', () => void sweep());
  subscriber
    .subscribe(outboxWakeUpChannel(deps.config.queuePrefix))
    .catch((error: unknown) =>
      log.warn({ err: error }, 'outbox relay could not subscribe to wake-ups; sweeping periodically'),
    );

  void sweep().finally(schedule);
  return {
    sweep,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      subscriber.disconnect();
      await running;
    },
  };
}
