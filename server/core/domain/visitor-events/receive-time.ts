/**
 * Visitor events are dated by their receive time (docs/api.md, Visitor events): days and ordering use it, and
 * the page's own `at` is kept only when plausible, from 24 hours before to 5 minutes after it.
 */
const KEPT_BEFORE_MS = 24 * 3600_000;
const KEPT_AFTER_MS = 5 * 60_000;

/** The `at` stored for an event: the page's time (as ISO UTC) when plausible, else the receive time. */
export function keptEventTime(at: string, receivedAt: Date): string {
  const sent = Date.parse(at);
  const received = receivedAt.getTime();
  const plausible = Number.isFinite(sent) && sent >= received - KEPT_BEFORE_MS && sent <= received + KEPT_AFTER_MS;
  return new Date(plausible ? sent : received).toISOString();
}

/** The UTC day of a time, `YYYY-MM-DD`: computed here, never by the database session's time zone. */
export const utcDay = (time: Date): string => time.toISOString().slice(0, 10);
