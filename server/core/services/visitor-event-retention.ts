import type { Db } from '../platform/db/client.js';
import { VISITOR_EVENT_TYPES } from '../wire/configurator/index.js';
import { utcDay } from '../domain/visitor-events/receive-time.js';
import { createVisitorEventRepository } from '../repositories/visitor-events.js';
import { createVisitorCounterRepository } from '../repositories/visitor-counters.js';

/** Rows deleted or folded per statement: short statements, so the sweep never holds many locks at once. */
const BATCH = 5000;
const DAY_MS = 24 * 3600_000;

export interface VisitorEventSweepResult {
  events: number;
  sessions: number;
  /** Counter shard rows of past days folded into their day's first row. */
  folded: number;
}

/**
 * Deletes expired visitor events and past days' session rows (the day rows hold their counts), and folds
 * past days' counter shards into one row per day so long-range analytics reads stay small (docs/api.md, Analytics).
 */
export async function sweepVisitorEvents(
  db: Db,
  options: { retentionDays: number; now?: Date },
): Promise<VisitorEventSweepResult> {
  const [visitorEvents, counters] = [createVisitorEventRepository(db), createVisitorCounterRepository(db)];
  const now = options.now ?? new Date();
  const before = new Date(now.getTime() - options.retentionDays * DAY_MS);
  let events = 0;
  for (;;) {
    const deleted = await visitorEvents.deleteVisitorEventsBefore(VISITOR_EVENT_TYPES, before, BATCH);
    events += deleted;
    if (deleted < BATCH) break;
  }
  const sessions = await counters.deleteSessionsBefore(utcDay(new Date(now.getTime() - DAY_MS)));
  let folded = 0;
  for (;;) {
    const rows = await counters.foldShardsBefore(utcDay(now), BATCH);
    folded += rows;
    if (rows < BATCH) break;
  }
  return { events, sessions, folded };
}
