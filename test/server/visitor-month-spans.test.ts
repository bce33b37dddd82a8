import { describe, expect, it } from 'vitest';
import { monthSpans } from '#core/domain/visitor-events/month-spans.js';

/** The split of an analytics range into whole months and the days around them (docs/api.md, Analytics). */
describe('monthSpans', () => {
  it('reads whole months as months and the days before and after as days', () => {
    expect(monthSpans({ from: '2025-11-26', to: '2026-11-26' })).toEqual({
      headDays: { from: '2025-11-26', to: '2025-11-30' },
      months: { from: '2025-12-01', to: '2026-10-01' },
      tailDays: { from: '2026-11-01', to: '2026-11-26' },
    });
  });

  it('takes a month the range covers exactly, February of a leap year included', () => {
    expect(monthSpans({ from: '2028-02-01', to: '2028-02-29' })).toEqual({
      headDays: null,
      months: { from: '2028-02-01', to: '2028-02-01' },
      tailDays: null,
    });
    expect(monthSpans({ from: '2025-12-31', to: '2026-02-01' })).toEqual({
      headDays: { from: '2025-12-31', to: '2025-12-31' },
      months: { from: '2026-01-01', to: '2026-01-01' },
      tailDays: { from: '2026-02-01', to: '2026-02-01' },
    });
  });

  it('reads a range without a whole month day by day', () => {
    const range = { from: '2026-01-02', to: '2026-01-31' };
    expect(monthSpans(range)).toEqual({ headDays: range, months: null, tailDays: null });
    const across = { from: '2026-01-15', to: '2026-02-27' };
    expect(monthSpans(across)).toEqual({ headDays: across, months: null, tailDays: null });
  });
});
