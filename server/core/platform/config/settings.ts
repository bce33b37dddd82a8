import 'dotenv/config';
import ipaddr from 'ipaddr.js';
import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The one place that reads process.env: the checked setting types and `loadSettings`, from which
 * each process builds its own config module out of pieces (./pieces.ts), validated at boot, so a
 * typo in a variable fails loudly instead of at 3 a.m. Each check's message completes
 * "NAME ...": `PORT must be an integer from 1 to 65535 (got "99999")`.
 */

/** Quotes a value for a message (secrets are never echoed: their checks report lengths only). */
const got = (value: string) => `(got ${JSON.stringify(value)})`;

/** A string setting with a check whose message follows the variable's name. */
function Checked(
  check: (value: string) => boolean,
  error: (value: string) => string,
  options: { default?: string } = {},
) {
  return Type.Refine(Type.String(options), check, error);
}

const INT32_MAX = 2_147_483_647;

function Int(min: number, max: number, fallback?: string) {
  return Checked(
    (v) => /^[0-9]+$/.test(v) && Number(v) >= min && Number(v) <= max,
    (v) => `must be an integer from ${min} to ${max} ${got(v)}`,
    fallback === undefined ? {} : { default: fallback },
  );
}

/** Milliseconds for a timer: at least 1, at most what setTimeout takes. */
const Millis = (fallback: string) => Int(1, INT32_MAX, fallback);

function OneOf(values: readonly string[], fallback?: string) {
  const listed =
    values.length > 2 ? `one of ${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values.join(' or ');
  return Checked(
    (v) => values.includes(v),
    (v) => `must be ${listed} ${got(v)}`,
    fallback === undefined ? {} : { default: fallback },
  );
}

const Bool = OneOf(['0', '1', 'true', 'false'], '0');

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function HttpUrl(fallback?: string) {
  return Checked(
    isHttpUrl,
    (v) => `must be an absolute http:// or https:// URL ${got(v)}`,
    fallback === undefined ? {} : { default: fallback },
  );
}

/** A secret: only its length is checked and reported. */
function Secret(minLength: number) {
  return Checked(
    (v) => v.length >= minLength,
    (v) => `must be at least ${minLength} characters (got ${v.length})`,
  );
}

const Host = (fallback: string) =>
  Checked(
    (v) => v.trim() !== '' && !/\s/.test(v),
    (v) => `must be a host name or IP address ${got(v)}`,
    { default: fallback },
  );

const RATE_PATTERN = /^([0-9]+)\/([0-9]+)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

function isRateSpec(spec: string): boolean {
  const match = RATE_PATTERN.exec(spec);
  if (!match) return false;
  const count = Number(match[1]);
  const windowMs = Number(match[2]) * UNIT_MS[match[3] as keyof typeof UNIT_MS];
  return Number.isSafeInteger(count) && count >= 1 && Number.isSafeInteger(windowMs) && windowMs > 0;
}

function RateSpec(fallback: string) {
  return Checked(
    isRateSpec,
    (v) =>
      `must be count/window with a count of at least 1 and a window above 0 in ms, s, m or h, like ${fallback} ${got(v)}`,
    { default: fallback },
  );
}

const DURATION_PATTERN = /^([0-9]+)(ms|s|m|h)$/;

/** A comma-separated list of durations (`5s,5m,30m,2h`) in milliseconds; what `DurationList` accepts. */
export function parseDurationList(spec: string): number[] {
  return spec.split(',').map((part) => {
    const [, amount, unit] = DURATION_PATTERN.exec(part.trim())!;
    return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  });
}

const isDurationList = (spec: string) => {
  const parts = spec.split(',').map((part) => part.trim());
  return (
    parts.length >= 1 &&
    parts.length <= 20 &&
    parts.every((part) => DURATION_PATTERN.test(part)) &&
    parseDurationList(spec).every((ms) => ms >= 1 && ms <= INT32_MAX)
  );
};

function DurationList(fallback: string) {
  return Checked(
    isDurationList,
    (v) =>
      `must be 1 to 20 comma-separated durations in ms, s, m or h, each from 1 ms to about 24 days, like ${fallback} ${got(v)}`,
    { default: fallback },
  );
}

/** TRUST_PROXY's entries, as today: split on commas, trimmed, empty ones dropped. */
const trustProxyEntries = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const isIp = (v: string) => ipaddr.IPv4.isValidFourPartDecimal(v) || ipaddr.IPv6.isValid(v);
const isCidr = (v: string) => ipaddr.IPv4.isValidCIDRFourPartDecimal(v) || ipaddr.IPv6.isValidCIDR(v);
/** `10.0.0.0/255.0.0.0`: the netmask form Fastify's proxy-addr takes too. */
const isNetmask = (v: string) => {
  const [address, mask, extra] = v.split('/');
  return (
    extra === undefined &&
    mask !== undefined &&
    ipaddr.IPv4.isValidFourPartDecimal(address) &&
    ipaddr.IPv4.isValidFourPartDecimal(mask)
  );
};
/** proxy-addr's named ranges, which Fastify accepts in trustProxy. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyEntry = (entry: string) =>
  isIp(entry) || isCidr(entry) || isNetmask(entry) || PROXY_RANGE_NAMES.has(entry);

const TrustProxy = Checked(
  (v) => trustProxyEntries(v).every(isProxyEntry),
  (v) => {
    const bad = trustProxyEntries(v).filter((entry) => !isProxyEntry(entry));
    return `must be comma-separated IP addresses, CIDRs or loopback/linklocal/uniquelocal (like 127.0.0.1,10.0.0.0/8) ${got(bad.join(','))}`;
  },
  { default: '' },
);

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A rate limit as `count/window` (`120/5m`), in the shape @fastify/rate-limit takes. */
export interface RateLimit {
  max: number;
  timeWindow: number;
}

export function parseRate(spec: string): RateLimit {
  const [, count, amount, unit] = RATE_PATTERN.exec(spec)!;
  return { max: Number(count), timeWindow: Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS] };
}

export const flag = (v: string | undefined) => v === '1' || v === 'true';
export const withoutTrailingSlash = (url: string) => url.replace(/\/$/, '');

/** The checked setting types the pieces are made of (each message follows the variable's name). */
export const setting = {
  Int,
  Millis,
  OneOf,
  Bool,
  HttpUrl,
  Secret,
  Host,
  RateSpec,
  DurationList,
  TrustProxy,
  Checked,
  INT32_MAX,
  got,
  trustProxyEntries,
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * A group of settings that belong together (Postgres, storage, the public share...): the
 * variables it reads, checked, and what it makes of them. A process's config is the pieces it
 * needs, so the worker never asks for a listen port and the BFF never for a database.
 */
export interface SettingsPiece<P extends TProperties = TProperties, R = unknown> {
  properties: P;
  read(env: { [K in keyof P]: Static<P[K]> }): R;
}

export function settingsPiece<P extends TProperties, R>(
  properties: P,
  read: (env: { [K in keyof P]: Static<P[K]> }) => R,
): SettingsPiece<P, R> {
  return { properties, read };
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The config a list of pieces makes: every piece's result, merged. */
export type SettingsOf<T extends readonly SettingsPiece<any, any>[]> = UnionToIntersection<
  ReturnType<T[number]['read']>
>;

/** One message per variable, in the schema's order: `NAME what is expected (got ...)`. */
function describeProblems(schema: TObject, env: unknown): string[] {
  const byName = new Map<string, string>();
  for (const error of Value.Errors(schema, env)) {
    const name = error.instancePath.slice(1) || 'settings';
    // A refinement's message is the one written for people; the others are TypeBox's.
    if (!byName.has(name) || error.keyword === '~refine') byName.set(name, `${name} ${error.message}`);
  }
  return [...byName.values()];
}

/**
 * Reads and checks the variables of `pieces` from `source` (default: the environment, with a
 * `.env` file). Empty values count as unset. Every problem is reported at once, on one line,
 * as a ConfigError.
 */
export function loadSettings<const T extends readonly SettingsPiece<any, any>[]>(
  pieces: T,
  source: Record<string, string | undefined> = process.env,
): SettingsOf<T> {
  const properties: TProperties = Object.assign({}, ...pieces.map((piece) => piece.properties));
  const schema = Type.Object(properties);
  const raw: Record<string, string> = {};
  for (const key of Object.keys(properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const env = Value.Default(schema, raw) as Record<string, string>;
  if (!Value.Check(schema, env)) {
    const problems = describeProblems(schema, env);
    // One line, so a process that stops on it prints one line.
    throw new ConfigError(
      problems.length === 1 ? problems[0] : `${problems.length} invalid settings: ${problems.join('; ')}`,
    );
  }
  return Object.assign({}, ...pieces.map((piece) => piece.read(env as never))) as SettingsOf<T>;
}

/** Fails at boot with a clear message when a secret the process needs is missing. */
export function requireSetting<T>(value: T | undefined, name: string): T {
  if (value === undefined || value === '') throw new ConfigError(`${name} is not set`);
  return value;
}

/**
 * For a process's entry point: a ConfigError (a bad or missing setting) is one line on stderr,
 * `config-share <process>: <message>`, and exit code 1. Anything else returns, for the caller to
 * rethrow with its stack.
 */
export function exitOnConfigError(processName: string, error: unknown): void {
  if (!(error instanceof ConfigError)) return;
  process.stderr.write(`config-share ${processName}: ${error.message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}
