import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { clientKey } from '../../domain/client-key.js';
import type { RateLimit } from '../../platform/config/settings.js';
import type { ReadBudgetDecision } from './read-budget.js';

/** Options of {@link createEventsBudget}. */
export interface EventsBudgetOptions {
  /** The request-path Redis connection (fail-fast). */
  redis: Redis;
  /** `QUEUE_PREFIX`. */
  prefix: string;
  /** `RATE_LIMIT_EVENTS`: visitor events per client and window. */
  rate: RateLimit;
}

/**
 * Visitor events budget (docs/api.md, Visitor events): per client IP (IPv6 by /64), one unit per event; an over-budget
 * call is refused whole and refunded. Redis trouble fails open: a broken counter must not silence the shop's analytics.
 */
export function createEventsBudget({ redis, prefix, rate }: EventsBudgetOptions) {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:share-events`,
    points: rate.max,
    duration: Math.max(1, Math.round(rate.timeWindow / 1000)),
    rejectIfRedisNotReady: true,
  });
  const decided = (res: RateLimiterRes, allowed: boolean): ReadBudgetDecision => {
    const resetSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return allowed
      ? { allowed, limit: rate.max, remaining: Math.max(0, rate.max - res.consumedPoints), resetSeconds }
      : { allowed, limit: rate.max, resetSeconds };
  };

  return {
    /** Spends `events` units of the client at `ip`; never rejects. */
    async spend(ip: string, events: number): Promise<ReadBudgetDecision> {
      const key = clientKey(ip);
      try {
        return decided(await limiter.consume(key, events), true);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) return { allowed: true, limit: rate.max };
        // Refused whole: its units were never recorded events.
        const refunded = await limiter.reward(key, events).catch(() => error);
        return decided(refunded instanceof RateLimiterRes ? refunded : error, false);
      }
    },
  };
}
