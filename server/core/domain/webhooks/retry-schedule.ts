/**
 * Waits before each webhook retry (docs/webhooks.md, Answering): by default Svix's eight attempts over about 28 h,
 * with +/-20 % jitter so retries of many deliveries do not arrive together.
 */

/** The least wait after a timeout or a 429 (capped at the schedule's longest step): a struggling receiver gets air. */
const STRUGGLING_RECEIVER_FLOOR_MS = 60_000;

const JITTER = 0.2;

export interface RetryInput {
  /** The schedule in use (WEBHOOK_RETRY_SCHEDULE). */
  schedule: readonly number[];
  /** The attempt that just failed, 1 for the first. */
  attempt: number;
  /** The receiver's Retry-After, in milliseconds, when it sent one. */
  retryAfterMs?: number | null;
  /** The attempt timed out or was answered 429. */
  struggling?: boolean;
  /** [0, 1): Math.random by default. */
  random?: () => number;
}

/** The wait before the next attempt, or null when the schedule is used up. */
export function retryDelayMs(input: RetryInput): number | null {
  const { schedule, attempt, retryAfterMs, struggling = false, random = Math.random } = input;
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  const longest = Math.max(...schedule);
  let delay = base * (1 - JITTER + 2 * JITTER * random());
  if (struggling) delay = Math.max(delay, Math.min(STRUGGLING_RECEIVER_FLOOR_MS, longest));
  // Honoured up to the schedule's longest step: a receiver cannot park a delivery for days.
  if (retryAfterMs != null && retryAfterMs > 0) delay = Math.max(delay, Math.min(retryAfterMs, longest));
  return Math.round(delay);
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
