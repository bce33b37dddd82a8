import { invalidRequest } from '../errors.js';
import { utcDay } from './receive-time.js';
import { MAX_ANALYTICS_DAYS } from '../../wire/analytics.js';

/** The range when none is asked for: the last 30 days ending today. */
const DEFAULT_ANALYTICS_DAYS = 30;
const DAY_MS = 24 * 3600_000;

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30), as UTC midnight; null otherwise. */
function dateOf(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && utcDay(new Date(time)) === value ? time : null;
}

/** Top choices when none is asked for, and the most one read gives. */
const DEFAULT_TOP_CHOICES = 10;
const MAX_TOP_CHOICES = 50;

const refuse = (field: 'from' | 'to' | 'top', message: string) =>
  invalidRequest(`querystring.${field} ${message}`, [{ field: `querystring.${field}`, message }]);

/**
 * An analytics read's UTC days (both ends included; defaults: today and the 29 days before) and top
 * count; anything out of range is a 400 naming the parameter.
 */
export function analyticsQuery(
  query: { from?: string; to?: string; top?: string },
  now: Date,
): { from: string; to: string; top: number } {
  const top = query.top === undefined ? DEFAULT_TOP_CHOICES : Number(query.top);
  if (!/^\d+$/.test(query.top ?? '1') || top < 1 || top > MAX_TOP_CHOICES)
    throw refuse('top', `must be a whole number from 1 to ${MAX_TOP_CHOICES}`);
  const to = query.to === undefined ? Date.parse(`${utcDay(now)}T00:00:00Z`) : dateOf(query.to);
  if (to === null) throw refuse('to', 'must be a date YYYY-MM-DD');
  const from = query.from === undefined ? to - (DEFAULT_ANALYTICS_DAYS - 1) * DAY_MS : dateOf(query.from);
  if (from === null) throw refuse('from', 'must be a date YYYY-MM-DD');
  if (from > to) throw refuse('from', 'must not be after to');
  if ((to - from) / DAY_MS + 1 > MAX_ANALYTICS_DAYS)
    throw refuse('from', `must be at most ${MAX_ANALYTICS_DAYS} days before to, both included`);
  return { from: utcDay(new Date(from)), to: utcDay(new Date(to)), top };
}
