import type { Executor } from '../platform/db/client.js';
import { VISITOR_EVENT_TYPES } from '../wire/configurator/index.js';
import { utcDay } from '../domain/visitor-events/receive-time.js';
import { deleteVisitorEventsBefore } from '../repositories/visitor-events.js';
import { deleteSessionsBefore } from '../repositories/visitor-counters.js';

/** Events deleted per statement: short statements, so the sweep never holds many locks at once. */
const BATCH = 5000;
const DAY_MS = 24 * 3600_000;

export interface VisitorEventSweepResult {
  events: number;
  sessions: number;
}

/**
 * Deletes visitor events older than `retentionDays` (VISITOR_EVENT_RETENTION_DAYS, contract
 * 12.10) and the session rows of days before yesterday, whose counts the day rows already hold.
 * The day counters stay as long as their project.
 */
export async function sweepVisitorEvents(
  db: Executor,
  options: { retentionDays: number; now?: Date },
): Promise<VisitorEventSweepResult> {
  const now = options.now ?? new Date();
  const before = new Date(now.getTime() - options.retentionDays * DAY_MS);
  let events = 0;
  for (;;) {
    const deleted = await deleteVisitorEventsBefore(db, VISITOR_EVENT_TYPES, before, BATCH);
    events += deleted;
    if (deleted < BATCH) break;
  }
  const sessions = await deleteSessionsBefore(db, utcDay(new Date(now.getTime() - DAY_MS)));
  return { events, sessions };
}
