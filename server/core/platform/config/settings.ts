import 'dotenv/config';
import ipaddr from 'ipaddr.js';

/**
 * The one place that reads process.env, checked at boot so a typo fails loudly. Each check's message
 * completes "NAME ...": `PORT must be an integer from 1 to 65535 (got "99999")`.
 */

export type ProcessName = 'server' | 'worker' | 'bff';

/** What a setting's declaration says about it, for people: the settings table's row. */
export interface About {
  /** One line: what the setting does. */
  doc: string;
  /** The value when unset (an empty value counts as unset); none: the setting stays undefined. */
  default?: string;
  /** The default as the table shows it, where the value alone says too little (`http://HOST:PORT`). */
  shown?: string;
}

/** One environment variable: its check, its default and its row in the settings table. */
export interface Setting<Required extends boolean = boolean> extends About {
  /** True when a default makes the value always a string. */
  required: Required;
  /** What a valid value looks like, in the table (`integer 1 to 65535`). */
  accepts: string;
  check?: (value: string) => boolean;
  /** Why `value` is refused, completing "NAME ...". */
  error?: (value: string) => string;
}

type Made<A extends About> = Setting<A extends { default: string } ? true : false>;

function define<const A extends About>(
  accepts: string,
  about: A,
  check?: (value: string) => boolean,
  error?: (value: string) => string,
): Made<A> {
  const made: Setting = { ...about, accepts, required: about.default !== undefined, check, error };
  // Whether it is required follows from `default`, which the type cannot see through a spread.
  return made as unknown as Made<A>;
}

/** Quotes a value for a message (secrets are never echoed: their checks report lengths only). */
const got = (value: string) => `(got ${JSON.stringify(value)})`;

const INT32_MAX = 2_147_483_647;

/** A string setting with a check whose message follows the variable's name. */
const checked = <const A extends About>(
  accepts: string,
  check: (value: string) => boolean,
  error: (value: string) => string,
  about: A,
) => define(accepts, about, check, error);

/** A string taken as it is. */
const text = <const A extends About>(accepts: string, about: A) => define(accepts, about);

const int = <const A extends About>(min: number, max: number, about: A) =>
  checked(
    max === INT32_MAX ? `integer, at least ${min}` : `integer ${min} to ${max}`,
    (v) => /^[0-9]+$/.test(v) && Number(v) >= min && Number(v) <= max,
    (v) => `must be an integer from ${min} to ${max} ${got(v)}`,
    about,
  );

/** Milliseconds for a timer: at least 1, at most what setTimeout takes. */
const millis = <const A extends About>(about: A) => ({ ...int(1, INT32_MAX, about), accepts: 'milliseconds' });

const oneOf = <const A extends About>(values: readonly string[], about: A) => {
  const listed =
    values.length > 2 ? `one of ${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values.join(' or ');
  return checked(
    values.map((value) => `\`${value}\``).join(', '),
    (v) => values.includes(v),
    (v) => `must be ${listed} ${got(v)}`,
    about,
  );
};

/** `1` or `true` turns it on; off by default. */
const bool = (about: Omit<About, 'default'>) =>
  ({ ...oneOf(['0', '1', 'true', 'false'], { ...about, default: '0' }), accepts: '`0`, `1`' }) as Setting<true>;

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const httpUrl = <const A extends About>(about: A) =>
  checked('http(s) URL', isHttpUrl, (v) => `must be an absolute http:// or https:// URL ${got(v)}`, about);

/** A secret: only its length is checked and reported. */
const secret = <const A extends About>(minLength: number, about: A) =>
  checked(
    `secret, ${minLength}+ characters`,
    (v) => v.length >= minLength,
    (v) => `must be at least ${minLength} characters (got ${v.length})`,
    about,
  );

const host = <const A extends About>(about: A) =>
  checked(
    'host name or IP',
    (v) => v.trim() !== '' && !/\s/.test(v),
    (v) => `must be a host name or IP address ${got(v)}`,
    about,
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

/** A rate limit as `count/window` (`120/5m`). */
const rate = <const A extends About & { default: string }>(about: A) =>
  checked(
    '`count/window`',
    isRateSpec,
    (v) =>
      'must be count/window with a count of at least 1 and a window above 0 in ms, s, m or h, ' +
      `like ${about.default} ${got(v)}`,
    about,
  );

const DURATION_PATTERN = /^([0-9]+)(ms|s|m|h)$/;

/** A comma-separated list of durations (`5s,5m,30m,2h`) in milliseconds; what `durations` accepts. */
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

const durations = <const A extends About & { default: string }>(about: A) =>
  checked(
    '1 to 20 durations (`ms`, `s`, `m`, `h`)',
    isDurationList,
    (v) =>
      'must be 1 to 20 comma-separated durations in ms, s, m or h, each from 1 ms to about 24 days, ' +
      `like ${about.default} ${got(v)}`,
    about,
  );

/** A comma-separated list: split, trimmed, empty entries dropped. */
export const listEntries = (value: string) =>
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

const trustProxy = <const A extends About>(about: A) =>
  checked(
    'IPs, CIDRs, `loopback`...',
    (v) => listEntries(v).every(isProxyEntry),
    (v) => {
      const bad = listEntries(v).filter((entry) => !isProxyEntry(entry));
      return (
        'must be comma-separated IP addresses, CIDRs or loopback/linklocal/uniquelocal ' +
        `(like 127.0.0.1,10.0.0.0/8) ${got(bad.join(','))}`
      );
    },
    about,
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

/** The setting types the pieces are declared with (each error message follows the variable's name). */
export const setting = {
  text,
  checked,
  int,
  millis,
  oneOf,
  bool,
  httpUrl,
  secret,
  host,
  rate,
  durations,
  trustProxy,
  INT32_MAX,
  got,
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Settings = Record<string, Setting>;
/** What a piece's `read` gets: each variable's checked value, undefined only where it has no default. */
type EnvOf<S extends Settings> = { [K in keyof S]: S[K] extends Setting<true> ? string : string | undefined };

/**
 * A group of settings that belong together; a process's config is the pieces it reads, so the worker
 * never asks for a listen port and the BFF never for a database.
 */
export interface SettingsPiece<
  S extends Settings = Settings,
  R = unknown,
  P extends readonly ProcessName[] = readonly ProcessName[],
> {
  processes: P;
  settings: S;
  read(env: EnvOf<S>): R;
}

export function settingsPiece<const P extends readonly ProcessName[], S extends Settings, R>(
  processes: P,
  settings: S,
  read: (env: EnvOf<S>) => R,
): SettingsPiece<S, R, P> {
  return { processes, settings, read };
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The config a list of pieces makes: every piece's result, merged. */
export type SettingsOf<T extends readonly SettingsPiece[]> = UnionToIntersection<ReturnType<T[number]['read']>>;

/**
 * Reads and checks the variables of `pieces` (default: the environment with `.env`); empty counts as
 * unset. Every problem is reported at once, on one line, as a ConfigError.
 */
export function loadSettings<const T extends readonly SettingsPiece[]>(
  pieces: T,
  source: Record<string, string | undefined> = process.env,
): SettingsOf<T> {
  const settings: Settings = Object.assign({}, ...pieces.map((piece) => piece.settings));
  const env: Record<string, string | undefined> = {};
  const problems: string[] = [];
  for (const [name, { default: fallback, check, error }] of Object.entries(settings)) {
    const value = source[name] === undefined || source[name] === '' ? fallback : source[name];
    if (value !== undefined && check && !check(value)) problems.push(`${name} ${error!(value)}`);
    env[name] = value;
  }
  if (problems.length > 0)
    throw new ConfigError(
      problems.length === 1 ? problems[0] : `${problems.length} invalid settings: ${problems.join('; ')}`,
    );
  return Object.assign({}, ...pieces.map((piece) => piece.read(env as never))) as SettingsOf<T>;
}

/** Fails at boot with a clear message when a secret the process needs is missing. */
export function requireSetting<T>(value: T | undefined, name: string): T {
  if (value === undefined || value === '') throw new ConfigError(`${name} is not set`);
  return value;
}

/**
 * For an entry point: a ConfigError becomes one line on stderr and exit code 1; anything else returns for
 * the caller to rethrow with its stack.
 */
export function exitOnConfigError(processName: string, error: unknown): void {
  if (!(error instanceof ConfigError)) return;
  process.stderr.write(`config-share ${processName}: ${error.message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}
