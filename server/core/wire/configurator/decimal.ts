/**
 * Exact decimal arithmetic for prices (docs/scene-format.md, How the configurator reads the data): owner numbers are
 * read from their shortest decimal form (`String(x)`), never their binary value, so `1.005` is 1005/1000 and rounds to
 * 101 cents.
 */

export type RoundingMode = 'half-up' | 'half-even' | 'up' | 'down';

/** A number as `units × 10^-scale`, exactly as `String(x)` writes it (exponents included). */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/** The exact decimal of a finite number's shortest form; null for NaN and infinities. */
export function decimalOf(value: number): Decimal | null {
  if (!Number.isFinite(value)) return null;
  const match = DECIMAL_TEXT.exec(String(value));
  if (!match) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const units = BigInt(`${sign}${whole}${fraction}`);
  return { units, scale: fraction.length - Number(exponent) };
}

export const pow10 = (exponent: number) => 10n ** BigInt(exponent);

const abs = (value: bigint) => (value < 0n ? -value : value);

/**
 * `n / d` rounded to an integer; `d` > 0. `half-up` rounds halves away from zero, `half-even` to
 * the even neighbour; `up` and `down` go toward +∞ and −∞ (a price step rounds up, a discount down).
 */
export function roundDiv(n: bigint, d: bigint, mode: RoundingMode): bigint {
  const quotient = n / d; // truncates toward zero
  const remainder = n % d;
  if (remainder === 0n) return quotient;
  if (mode === 'up') return n > 0n ? quotient + 1n : quotient;
  if (mode === 'down') return n < 0n ? quotient - 1n : quotient;
  const sign = n < 0n ? -1n : 1n;
  const twice = 2n * abs(remainder);
  if (twice > d) return quotient + sign;
  if (twice < d) return quotient;
  return mode === 'half-up' || quotient % 2n !== 0n ? quotient + sign : quotient;
}

/** `decimal × 10^digits` rounded once: major units to minor units, or a factor to fixed point. */
export function scaleDecimal(decimal: Decimal, digits: number, mode: RoundingMode): bigint {
  const shift = digits - decimal.scale;
  return shift >= 0 ? decimal.units * pow10(shift) : roundDiv(decimal.units, pow10(-shift), mode);
}

/** A finite number in minor units of a currency with `decimals` digits; 0n for anything else. */
export function toMinorUnits(value: number, decimals: number, mode: RoundingMode): bigint {
  const decimal = decimalOf(value);
  return decimal ? scaleDecimal(decimal, decimals, mode) : 0n;
}

/** Clamps to ±limit. */
export function clampBig(value: bigint, limit: bigint): bigint {
  return value > limit ? limit : value < -limit ? -limit : value;
}

/** An amount in minor units as a decimal string with exactly `decimals` digits, for `Intl` (no float error). */
export function minorToDecimalString(amount: bigint, decimals: number): string {
  const digits = abs(amount)
    .toString()
    .padStart(decimals + 1, '0');
  const sign = amount < 0n ? '-' : '';
  if (decimals === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
