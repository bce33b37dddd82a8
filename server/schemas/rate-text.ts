import type { RateLimit } from '../core/platform/config/settings.js';

const UNITS: Array<[number, string]> = [
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1000, 'second'],
];

/** A rate limit as OpenAPI descriptions state it: `120 per 5 minutes`, from the running settings. */
export function per({ max, timeWindow }: RateLimit): string {
  const [size, unit] = UNITS.find(([ms]) => timeWindow % ms === 0) ?? [1, 'millisecond'];
  const count = timeWindow / size;
  return `${max} per ${count === 1 ? unit : `${count} ${unit}s`}`;
}
