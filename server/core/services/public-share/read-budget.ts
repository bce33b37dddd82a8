import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { clientKey } from '../../domain/client-key.js';
import { tooManyRequests } from '../../domain/errors.js';
import type { RateLimit } from '../../platform/config/settings.js';

/** Options of {@link createReadBudget}. */
export interface ReadBudgetOptions {
  /** The request-path Redis connection (fail-fast). */
  redis: Redis;
  /** `QUEUE_PREFIX`. */
  prefix: string;
  /** `RATE_LIMIT_SHARE_READ`: reads per client and window. */
  rate: RateLimit;
}

/** What the budget says about one read, with the values of its RateLimit headers. */
export type ReadBudgetDecision =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  /** Redis did not answer: the read is allowed, uncounted and without RateLimit headers. */
  | { allowed: true; limit: number; remaining?: undefined; resetSeconds?: undefined }
  | { allowed: false; limit: number; resetSeconds: number };

/** The Redis key of a client's read budget (IPv4 address or IPv6 /64). */
const keyPrefix = (prefix: string) => `${prefix}:share-read`;
export const readBudgetKey = (prefix: string, ip: string) => `${keyPrefix(prefix)}:${clientKey(ip)}`;

/** The draft RateLimit headers of a counted read (allowed or refused). */
export function readBudgetHeaders(decision: { limit: number; remaining?: number; resetSeconds: number }) {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining ?? 0),
    'ratelimit-reset': String(decision.resetSeconds),
  };
}

/** The 429 of a refused read (Retry-After, the RateLimit headers, the error body: docs/api.md, Wire conventions). */
export function readBudgetExceeded(decision: { limit: number; resetSeconds: number }) {
  const seconds = decision.resetSeconds;
  return tooManyRequests(seconds, `Too many requests, retry in ${seconds} s.`, readBudgetHeaders(decision));
}

/**
 * The public read budget (docs/bff.md, Read budget), counted in Redis whether the server or a BFF answers, refused
 * reads included; one event-loop turn's reads share one INCRBY. Redis trouble fails open so the shop stays online.
 */
export function createReadBudget({ redis, prefix, rate }: ReadBudgetOptions) {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: keyPrefix(prefix),
    points: rate.max,
    duration: Math.max(1, Math.round(rate.timeWindow / 1000)),
    rejectIfRedisNotReady: true,
  });
  /** Reads waiting for this turn's count, per address (keyed when counted: fewer parses on the hot path). */
  let waiting = new Map<string, Array<(decision: ReadBudgetDecision) => void>>();

  function count(ip: string, reads: Array<(decision: ReadBudgetDecision) => void>) {
    const decide = (res: RateLimiterRes) => {
      const resetSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      reads.forEach((resolve, i) => {
        const counted = res.consumedPoints - reads.length + i + 1;
        resolve(
          counted <= rate.max
            ? { allowed: true, limit: rate.max, remaining: rate.max - counted, resetSeconds }
            : { allowed: false, limit: rate.max, resetSeconds },
        );
      });
    };
    limiter.consume(clientKey(ip), reads.length).then(decide, (error: unknown) => {
      if (error instanceof RateLimiterRes) decide(error);
      else for (const resolve of reads) resolve({ allowed: true, limit: rate.max });
    });
  }

  function countAll() {
    const turn = waiting;
    waiting = new Map();
    for (const [ip, reads] of turn) count(ip, reads);
  }

  return {
    /** Counts one read of the client at `ip`; never rejects. */
    spend(ip: string): Promise<ReadBudgetDecision> {
      return new Promise((resolve) => {
        if (waiting.size === 0) setImmediate(countAll);
        const reads = waiting.get(ip);
        if (reads) reads.push(resolve);
        else waiting.set(ip, [resolve]);
      });
    },
  };
}

export type ReadBudget = ReturnType<typeof createReadBudget>;
