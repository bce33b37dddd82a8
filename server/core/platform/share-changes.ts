import type { Redis } from 'ioredis';

/**
 * Share-change notices (`<seq> <json>`) on `<QUEUE_PREFIX>:share-changes`: a reader trusts its memory only once it has
 * heard up to the latest seq, so a revoked token stops at once everywhere although pub/sub is asynchronous.
 */
export type ShareChangeReason = 'share' | 'project' | 'asset' | 'billing';

export type ShareChange =
  | { reason: Exclude<ShareChangeReason, 'asset' | 'billing'>; projectId: string; workspaceId: string }
  /** Every project of the workspace may answer differently. */
  | { reason: 'asset' | 'billing'; workspaceId: string; projectId?: undefined };

export interface ShareChangeNotice {
  seq: number;
  change: ShareChange;
}

export const shareChangeChannel = (prefix: string) => `${prefix}:share-changes`;
/** The key of the notices' sequence number. */
export const shareChangeSequenceKey = (prefix: string) => `${prefix}:share-changes:seq`;

// INCR and PUBLISH in one script: the number and the message cannot be split by another change.
const PUBLISH_SCRIPT = `
  local seq = redis.call('INCR', KEYS[1])
  redis.call('PUBLISH', ARGV[1], seq .. ' ' .. ARGV[2])
  return seq`;

/** Publishes notices on the request-path Redis client (fail-fast: a change never waits long on Redis). */
export function createShareChangePublisher(redis: Redis, prefix: string) {
  return {
    async publish(change: ShareChange): Promise<number> {
      return Number(
        await redis.eval(
          PUBLISH_SCRIPT,
          1,
          shareChangeSequenceKey(prefix),
          shareChangeChannel(prefix),
          JSON.stringify(change),
        ),
      );
    },
  };
}

export type ShareChangePublisher = ReturnType<typeof createShareChangePublisher>;

/** Parses one channel message; null when it is not a notice. */
function parseShareChangeNotice(message: string): ShareChangeNotice | null {
  const space = message.indexOf(' ');
  const seq = Number(message.slice(0, space));
  if (space < 1 || !Number.isSafeInteger(seq)) return null;
  try {
    const change = JSON.parse(message.slice(space + 1)) as ShareChange;
    return typeof change?.workspaceId === 'string' ? { seq, change } : null;
  } catch {
    return null;
  }
}

export interface ShareChangeFeedHandlers {
  /** One notice, in publishing order. */
  onNotice(notice: ShareChangeNotice): void;
  /** The feed cannot vouch for what was heard (first subscription, reconnect, lost notice): drop everything kept. */
  onReset(): void;
}

/**
 * Listens on a connection of its own (a subscribed connection can do nothing else). `isCurrent()` is false
 * when a notice was missed or Redis is unreachable, so callers fall back to Postgres.
 */
export function createShareChangeFeed(options: {
  subscriber: Redis;
  redis: Redis;
  prefix: string;
  handlers: ShareChangeFeedHandlers;
  lostAfterMs?: number;
}) {
  const { subscriber, redis, prefix, handlers, lostAfterMs = 2000 } = options;
  const channel = shareChangeChannel(prefix);
  /** Last number heard; -1 while not subscribed (nothing may be trusted). */
  let heard = -1;
  /** Since when Redis has reported a number this feed has not heard (a notice on its way, or lost). */
  let behindSince: number | null = null;

  let resynchronising: Promise<void> | null = null;

  /** Forgets everything and starts again from the latest number (once at a time, however many readers notice). */
  function resynchronise(): Promise<void> {
    resynchronising ??= (async () => {
      heard = -1;
      handlers.onReset();
      const latest = Number((await redis.get(shareChangeSequenceKey(prefix)).catch(() => null)) ?? 0);
      // Notices that arrived meanwhile were applied (evicted); the number itself is what counts.
      heard = Math.max(heard, latest);
      behindSince = null;
    })().finally(() => {
      resynchronising = null;
    });
    return resynchronising;
  }

  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const notice = parseShareChangeNotice(message);
    if (!notice) return;
    if (heard >= 0 && notice.seq <= heard) return;
    handlers.onNotice(notice);
    // A gap means a notice was lost: its project is unknown, so everything goes.
    if (heard >= 0 && notice.seq !== heard + 1) handlers.onReset();
    heard = Math.max(heard, notice.seq);
  });
  // Subscriptions are restored by ioredis after a reconnect; what was published meanwhile is lost.
  subscriber.on('ready', () => void resynchronise());
  const subscribed = subscriber.subscribe(channel).then(resynchronise, () => {});

  return {
    /** Resolves once the first subscription is in place (tests, start-up). */
    ready: () => subscribed,
    /** Whether memory may be trusted right now: every notice published so far has been heard. */
    async isCurrent(): Promise<boolean> {
      if (heard < 0) return false;
      let latest: number;
      try {
        latest = Number((await redis.get(shareChangeSequenceKey(prefix))) ?? 0);
      } catch {
        return false;
      }
      if (latest <= heard) {
        behindSince = null;
        return true;
      }
      // Normally the notice arrives within milliseconds; one that never does was lost.
      const now = Date.now();
      behindSince ??= now;
      if (now - behindSince > lostAfterMs) void resynchronise();
      return false;
    },
    /** The last number heard (-1 before the first subscription). */
    get heard() {
      return heard;
    },
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}

export type ShareChangeFeed = ReturnType<typeof createShareChangeFeed>;
