import type { Db } from '../server/core/platform/db/client.js';
import { dispatchOutbox, type DispatchOptions } from '../server/core/jobs/outbox.js';
import type { Queues } from '../server/core/jobs/queues.js';
import type { Logger } from '../server/core/platform/log.js';

export interface OutboxRelayOptions {
  db: Db;
  queues: Queues;
  /** Pause between sweeps (OUTBOX_RELAY_INTERVAL_MS, default 2000). */
  intervalMs: number;
  /** A row enqueued this long ago and still present is enqueued again (OUTBOX_RESEND_AFTER_MS, default 60000). */
  resendAfterMs: number;
  log: Logger;
  /** Rows per dispatch call (default 100); a full batch is followed by another at once. */
  batchSize?: number;
  /** Records the final failure of work whose job was lost too often (see `dispatchOutbox`). */
  onGiveUp?: DispatchOptions['onGiveUp'];
  /** Hand-overs after which a lost job is given up (default 5). */
  maxEnqueues?: number;
}

export interface OutboxRelay {
  /** One sweep now (also what the timer runs); resolves when it is done. */
  sweep(): Promise<number>;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * The outbox relay: every `intervalMs`, hands BullMQ whatever the outbox still holds (rows the
 * fast path could not enqueue because Redis was down, and jobs Redis lost or a dead worker
 * left). Several relays may run at once (one per worker process): rows are claimed with SKIP
 * LOCKED and BullMQ absorbs a job id it already has.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { db, queues, intervalMs, resendAfterMs, log, batchSize = 100, onGiveUp, maxEnqueues } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await dispatchOutbox(db, queues, { resendAfterMs, batchSize, onGiveUp, maxEnqueues });
      total += result.sent;
      if (result.gaveUp > 0) log.warn({ gaveUp: result.gaveUp }, 'outbox relay gave up on jobs lost too often');
      // A short batch means nothing more is due; a failure means Redis is in trouble: wait for the next sweep.
      if (result.claimed < batchSize || result.failed > 0 || stopped) return total;
    }
  }

  function sweep(): Promise<number> {
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

  void sweep().finally(schedule);
  return {
    sweep,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
