import type { Redis } from 'ioredis';
import type { CommittedOutboxJob } from './queues.js';

/** The Redis pub/sub channel on which committed outbox work wakes the workers' relays. */
export const outboxWakeUpChannel = (prefix: string) => `${prefix}:outbox:wake-up`;

/** The logger method the nudger reports with (pino's). */
interface NudgeLog {
  debug(details: object, message: string): void;
}

/**
 * After a commit with outbox rows, tells the relays to sweep now (commits a few ms apart share one message); never
 * throws or waits for Redis (`redis` must fail fast). A lost wake-up costs only time: the periodic sweep finds them.
 */
export function createOutboxNudger(redis: Redis, channel: string) {
  let timer: NodeJS.Timeout | null = null;
  let publishing: Promise<void> | null = null;
  let log: NudgeLog | undefined;

  function publish() {
    timer = null;
    publishing = redis
      .publish(channel, '1')
      .then(
        () => {},
        (error: unknown) =>
          log?.debug({ err: error }, 'outbox wake-up not published; the relay sweep will find the work'),
      )
      .finally(() => {
        publishing = null;
      });
  }

  return {
    /** `rows`: what the commit added (nothing added, nothing to say); `requestLog`: where a failed publish is noted. */
    nudge(rows: readonly CommittedOutboxJob[], requestLog?: NudgeLog) {
      if (rows.length === 0) return;
      if (requestLog) log = requestLog;
      timer ??= setTimeout(publish, 5);
    },
    /** Publishes what is pending now and waits for it (graceful shutdown, tests). */
    async drain() {
      if (timer) {
        clearTimeout(timer);
        publish();
      }
      await publishing;
    },
  };
}

export type OutboxNudger = ReturnType<typeof createOutboxNudger>;
