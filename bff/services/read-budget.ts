import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { RateLimit } from '../../server/core/platform/config/settings.js';
import { shareReadRateKey } from '../../server/core/http/share-read-rate-key.js';
import { boundedMemo } from './bounded-memo.js';

/** Options of {@link createReadBudget}. */
export interface ReadBudgetOptions {
  /** The request-path Redis connection (fail-fast). */
  redis: Redis;
  /** `QUEUE_PREFIX`: the budget's key is the server's (see share-read-rate-key.ts). */
  prefix: string;
  /** `RATE_LIMIT_SHARE_READ`: the server's budget per client. */
  rate: RateLimit;
  /** Units taken from Redis at once per client (`BFF_RATE_SLICE`, default 5). */
  slice: number;
  /** Clients whose slices one process remembers (default 100 000). */
  maxClients?: number;
}

/** What the budget says about one request answered from the cache, with its RateLimit headers' values. */
export type BudgetDecision =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  /** `remaining` and `resetSeconds` unknown: Redis did not answer and the budget fails open, as the server's does. */
  | { allowed: true; limit: number; remaining?: undefined; resetSeconds?: undefined }
  | { allowed: false; limit: number; retryAfterSeconds: number };

/** The draft RateLimit headers of an allowed decision whose count is known (the server's limiter sends the same). */
export function rateLimitHeaderValues(decision: {
  limit: number;
  remaining: number;
  resetSeconds: number;
}): Record<string, number> {
  return {
    'ratelimit-limit': decision.limit,
    'ratelimit-remaining': decision.remaining,
    'ratelimit-reset': decision.resetSeconds,
  };
}

/** What one process holds of a client's budget. */
interface ClientSlice {
  /** Units taken from Redis and not spent yet. */
  unspent: number;
  /**
   * The Redis counts those units stand for, oldest first, as runs `[from, to]`: a slice taken
   * ahead of need (see prefetch) is a run of its own, since other processes counted in between.
   */
  runs: Array<[number, number]>;
  /** Units asked for when the last slice was taken (the next may double, see nextSliceSize). */
  size: number;
  /** When the last slice was taken (ms since the epoch). */
  takenAt: number;
  /** The last take reached the limit: once these units are spent, the client is refused. */
  atLimit: boolean;
  /** When the Redis window ends (ms since the epoch). */
  resetAt: number;
}

/**
 * INCRBY on the server's counter, with the window's expiry when the key is new (the same rule as
 * @fastify/rate-limit's script: the first count sets the window, later ones keep it). A slice
 * never reaches past the limit, so the counter reads what the server's alone would; past the
 * limit one unit is taken, as the server counts a refused request.
 */
const TAKE = `local before = tonumber(redis.call('GET', KEYS[1])) or 0
local units = math.max(1, math.min(tonumber(ARGV[1]), tonumber(ARGV[3]) - before))
local current = redis.call('INCRBY', KEYS[1], units)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) ttl = tonumber(ARGV[2]) end
return {current, ttl, units}`;

/** Gives unspent units back, unless the window they were taken in is over. */
const GIVE_BACK = `if redis.call('PTTL', KEYS[1]) > 0 then return redis.call('DECRBY', KEYS[1], ARGV[1]) end return 0`;

interface BudgetCommands {
  bffBudgetTake(key: string, units: number, windowMs: number, max: number): Promise<[number, number, number]>;
  bffBudgetGiveBack(key: string, units: number): Promise<number>;
}

/**
 * The public read budget (contract section 5) for the answers the BFF gives from its cache, on
 * the server's own Redis counter, so a client has one budget whether the BFF or the server
 * answers. A cache hit must not wait for Redis each time: the BFF takes `slice` units at once
 * (INCRBY) and spends them locally; when they are used up it takes another slice. Before a
 * request goes to the server (which counts it itself), the client's unspent units are given back,
 * so with one BFF the count is exact. Hits waiting for a slice are served by one INCRBY sized for
 * all of them (at least `slice`), so a busy client costs one round trip per burst, not per `slice`
 * hits. With N BFFs, units another process took and has not spent
 * yet count too: at most (slice - 1) per client per other BFF process, until spent or the window
 * ends (for a client busy enough that its slices grow, see nextSliceSize and prefetch: at most
 * 1.25 % of the limit per other process). Redis unreachable: the request is allowed (the server's limiter fails open the same way).
 */
export function createReadBudget(options: ReadBudgetOptions) {
  const { prefix, rate, slice } = options;
  const redis = options.redis as Redis & BudgetCommands;
  if (!('bffBudgetTake' in options.redis)) {
    options.redis.defineCommand('bffBudgetTake', { numberOfKeys: 1, lua: TAKE });
    options.redis.defineCommand('bffBudgetGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
  }
  const slices = new LRUCache<string, ClientSlice>({ max: options.maxClients ?? 100_000 });
  /** Slices being taken: concurrent hits of one client wait for one INCRBY rather than each sending theirs. */
  const taking = new Map<string, Promise<void>>();
  /** Hits waiting for a slice, per key: the next slice is taken large enough for all of them. */
  const waiting = new Map<string, number>();
  /** Redis keys of recent addresses: parsing an address is a hot path cost worth skipping. */
  const keyOf = boundedMemo((ip) => shareReadRateKey(prefix, ip));

  /**
   * A client that takes slices less than a second apart gets one twice as large as the last, up
   * to 1 % of the limit (at most 1000 units): a busy address (a shop's office behind one NAT, a
   * load test) then costs one Redis round trip per many hits. With the contract's 120 per 5
   * minutes that bound is below `slice`, so slices stay at `slice` and the count's precision is
   * unchanged.
   */
  const maxSlice = Math.max(slice, Math.min(1000, Math.floor(rate.max / 100)));
  function nextSliceSize(previous: ClientSlice | undefined, now: number): number {
    if (!previous || now - previous.takenAt > 1000) return slice;
    return Math.min(maxSlice, previous.size * 2);
  }

  async function takeSlice(key: string): Promise<void> {
    const size = nextSliceSize(slices.get(key), Date.now());
    const [current, ttl, units] = await redis.bffBudgetTake(
      key,
      Math.max(size, waiting.get(key) ?? 0),
      rate.timeWindow,
      rate.max,
    );
    const first = current - units + 1;
    // Another process may have counted meanwhile: units past the limit are never spent.
    const usable = Math.max(0, Math.min(units, rate.max - first + 1));
    const now = Date.now();
    const held = slices.get(key);
    // Units of a window that is over (the key started again at 1) are not spent in the new one.
    const keep = held && held.resetAt > now && first > 1 ? held : undefined;
    const runs: Array<[number, number]> = keep ? keep.runs : [];
    if (usable > 0) runs.push([first, first + usable - 1]);
    const next: ClientSlice = {
      unspent: (keep?.unspent ?? 0) + usable,
      runs,
      size,
      takenAt: now,
      atLimit: current >= rate.max,
      resetAt: now + ttl,
    };
    slices.set(key, next, { ttl: Math.max(1, ttl) });
  }

  /**
   * A client whose slices have grown (it is busy: see nextSliceSize) gets its next slice while a
   * quarter of the last one is left, so its hits never wait for Redis. Slices of the configured
   * size are not taken ahead, so with the default limit a process never holds more than `slice`.
   */
  function prefetch(key: string, held: ClientSlice) {
    if (held.size <= slice || held.atLimit || held.unspent > held.size / 4 || taking.has(key)) return;
    const pending = takeSlice(key)
      .catch(() => undefined) // Redis unreachable: the next hit without units takes the usual path
      .finally(() => taking.delete(key));
    taking.set(key, pending);
  }

  /** The decision from what this process holds; undefined when a slice must be taken first. */
  function spendHeld(key: string): BudgetDecision | undefined {
    const now = Date.now();
    const held = slices.get(key);
    if (!held || held.resetAt <= now) return undefined;
    const resetSeconds = Math.max(1, Math.ceil((held.resetAt - now) / 1000));
    if (held.unspent > 0) {
      held.unspent -= 1;
      const run = held.runs[0];
      const count = run[0]++;
      if (run[0] > run[1]) held.runs.shift();
      prefetch(key, held);
      return { allowed: true, limit: rate.max, remaining: Math.max(0, rate.max - count), resetSeconds };
    }
    return held.atLimit ? { allowed: false, limit: rate.max, retryAfterSeconds: resetSeconds } : undefined;
  }

  async function spendTaken(key: string): Promise<BudgetDecision> {
    for (;;) {
      let pending = taking.get(key);
      if (!pending) {
        pending = takeSlice(key).finally(() => taking.delete(key));
        taking.set(key, pending);
      }
      waiting.set(key, (waiting.get(key) ?? 0) + 1);
      try {
        await pending;
      } catch {
        return { allowed: true, limit: rate.max };
      } finally {
        const left = waiting.get(key)! - 1;
        if (left === 0) waiting.delete(key);
        else waiting.set(key, left);
      }
      const decision = spendHeld(key);
      if (decision) return decision;
    }
  }

  return {
    /**
     * Spends one unit of the client's budget for an answer the BFF gives itself: at once while
     * this process holds units (no promise on the hot path), else once a slice is taken.
     */
    spend(ip: string): BudgetDecision | Promise<BudgetDecision> {
      const key = keyOf(ip);
      return spendHeld(key) ?? spendTaken(key);
    },

    /**
     * Spends one unit only when this process already holds one for the client: the allowed
     * decision, or undefined (nothing spent) when a slice must be taken or the client is over the
     * limit. The cache's fast path answers with it and leaves every other case to the full path.
     */
    spendIfHeld(ip: string): Extract<BudgetDecision, { remaining: number }> | undefined {
      const decision = spendHeld(keyOf(ip));
      return decision?.allowed && decision.remaining !== undefined ? decision : undefined;
    },

    /** Before the server counts a request of this client itself: the units this process holds go back (undefined: none held). */
    giveBack(ip: string): Promise<void> | undefined {
      const key = keyOf(ip);
      const held = slices.get(key);
      if (!held || held.unspent === 0 || held.resetAt <= Date.now()) return undefined;
      const units = held.unspent;
      held.unspent = 0;
      held.runs = [];
      return redis.bffBudgetGiveBack(key, units).then(
        () => {},
        () => {},
      );
    },
  };
}

export type ReadBudget = ReturnType<typeof createReadBudget>;
