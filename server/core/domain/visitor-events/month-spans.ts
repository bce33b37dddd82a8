/** A range of UTC days, both ends included, as `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * A range split so whole calendar months are read from month rows and only the days around them
 * day by day; a range with no whole month is all days.
 */
export interface MonthSpans {
  headDays: DayRange | null;
  months: DayRange | null;
  tailDays: DayRange | null;
}

const day = (time: number) => new Date(time).toISOString().slice(0, 10);
const DAY_MS = 24 * 3600_000;
const monthBefore = (monthStart: number) => {
  const date = new Date(monthStart);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1);
};

/** `from` and `to` are valid `YYYY-MM-DD` dates with `from` not after `to` (analytics-query.ts). */
export function monthSpans(range: DayRange): MonthSpans {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Date.parse(`${range.to}T00:00:00Z`);
  const start = new Date(from);
  // The first month that starts within the range, and the first month that starts after it.
  const firstMonth = start.getUTCDate() === 1 ? from : Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
  const end = new Date(to + DAY_MS);
  const afterLastMonth = end.getUTCDate() === 1 ? to + DAY_MS : Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1);
  if (firstMonth >= afterLastMonth) return { headDays: range, months: null, tailDays: null };
  return {
    headDays: firstMonth > from ? { from: range.from, to: day(firstMonth - DAY_MS) } : null,
    months: { from: day(firstMonth), to: day(monthBefore(afterLastMonth)) },
    tailDays: afterLastMonth <= to ? { from: day(afterLastMonth), to: range.to } : null,
  };
}
