import { describe, expect, it } from 'vitest';
import { decimalOf, roundDiv, toMinorUnits } from '#core/wire/configurator/decimal.js';

/**
 * Owner numbers read from their shortest decimal form, then rounded once
 * (docs/scene-format.md, How the configurator reads the data).
 */
describe('decimalOf', () => {
  it('reads the digits String(x) writes, exponents included', () => {
    expect(decimalOf(1.005)).toEqual({ units: 1005n, scale: 3 });
    expect(decimalOf(-0.125)).toEqual({ units: -125n, scale: 3 });
    expect(decimalOf(1e21)).toEqual({ units: 1n, scale: -21 });
    expect(decimalOf(1.5e-7)).toEqual({ units: 15n, scale: 8 });
    expect(decimalOf(Number.NaN)).toBeNull();
  });
});

describe('toMinorUnits', () => {
  it('converts exactly where binary floating point would not', () => {
    expect(1.005 * 100).not.toBe(100.5);
    expect(toMinorUnits(1.005, 2, 'half-up')).toBe(101n);
    expect(toMinorUnits(1e21, 2, 'half-up')).toBe(10n ** 23n);
    expect(toMinorUnits(5e-3, 2, 'half-up')).toBe(1n);
    expect(toMinorUnits(5e-3, 2, 'half-even')).toBe(0n);
  });
});

describe('roundDiv', () => {
  it.each([
    [125n, 10n, 'half-up', 13n],
    [125n, 10n, 'half-even', 12n],
    [135n, 10n, 'half-even', 14n],
    [-125n, 10n, 'half-up', -13n],
    [-125n, 10n, 'half-even', -12n],
    [121n, 10n, 'up', 13n],
    [-121n, 10n, 'up', -12n],
    [129n, 10n, 'down', 12n],
    [-121n, 10n, 'down', -13n],
    [120n, 10n, 'up', 12n],
  ] as const)('%s / %s with %s is %s', (n, d, mode, expected) => {
    expect(roundDiv(n, d, mode)).toBe(expected);
  });
});
