import 'dotenv/config';
import { Ajv } from 'ajv';
import ipaddr from 'ipaddr.js';
import { parsePreviousKeys, parseSigningKey } from '../../domain/cart-keys.js';

/**
 * The one place that reads process.env. Each setting is a JSON Schema leaf naming its variable (pieces.ts,
 * docs/settings.md), checked by Ajv at boot; a message completes "NAME must be ...".
 */

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A rate limit as `count/window` (`120/5m`), in the shape @fastify/rate-limit takes. */
export interface RateLimit {
  max: number;
  timeWindow: number;
}

const INT32_MAX = 2_147_483_647;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const ms = (duration: string) => {
  const [, amount, unit] = /^([0-9]+)(ms|s|m|h)$/.exec(duration.trim()) ?? [];
  return unit ? Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS] : NaN;
};
const parseRate = (v: string): RateLimit => ({ max: Number(v.split('/')[0]), timeWindow: ms(v.split('/')[1] ?? '') });
const list = (v: string) => v.split(',').flatMap((s) => s.trim() || []);
const isHttpUrl = (v: string) => /^https?:\/\/./i.test(v) && URL.canParse(v) && new URL(v).hostname !== '';
const isOrigin = (v: string) => /^https?:\/\/./.test(v) && URL.canParse(v) && new URL(v).origin === v;
const isProxy = (v: string) =>
  ['loopback', 'linklocal', 'uniquelocal'].includes(v) ||
  ipaddr.IPv4.isValidFourPartDecimal(v) ||
  ipaddr.IPv6.isValid(v) ||
  ipaddr.IPv4.isValidCIDRFourPartDecimal(v) ||
  ipaddr.IPv6.isValidCIDR(v) ||
  // `10.0.0.0/255.0.0.0`: the netmask form Fastify's proxy-addr takes too.
  (/^[^/]+\/[^/]+$/.test(v) && v.split('/').every((part) => ipaddr.IPv4.isValidFourPartDecimal(part)));

/** Custom formats: the check, what a value must be, and whether the message may quote it (`got`). */
const FORMATS: Record<string, { check: (v: string) => boolean; must: string; got?: 'bad entries' | 'never' }> = {
  url: { check: isHttpUrl, must: 'an absolute http:// or https:// URL' },
  host: { check: (v) => /^\S+$/.test(v), must: 'a host name or IP address' },
  rate: {
    check: (v) =>
      /^[0-9]+\/[0-9]+[a-z]+$/.test(v) && Object.values(parseRate(v)).every((n) => Number.isSafeInteger(n) && n >= 1),
    must: 'count/window with a count of at least 1 and a window above 0 in ms, s, m or h, like {default}',
  },
  durations: {
    check: (v) => v.split(',').length <= 20 && v.split(',').every((part) => ms(part) >= 1 && ms(part) <= INT32_MAX),
    must: '1 to 20 comma-separated durations in ms, s, m or h, each from 1 ms to about 24 days, like {default}',
  },
  proxies: {
    check: isProxy,
    must: 'comma-separated IP addresses, CIDRs or loopback/linklocal/uniquelocal (like 127.0.0.1,10.0.0.0/8)',
    got: 'bad entries',
  },
  origins: {
    check: isOrigin,
    must:
      'comma-separated origins like https://console.example.com or http://127.0.0.1:8080 ' +
      '(no path, no trailing slash)',
    got: 'bad entries',
  },
  'cart-key': {
    check: (v) => v === '' || parseSigningKey(v) !== null,
    must: 'a P-256 (ES256) private key as PKCS#8 PEM or as a JWK',
    got: 'never',
  },
  'cart-public-keys': {
    check: (v) => v === '' || parsePreviousKeys(v) !== null,
    must: 'P-256 public keys only: SPKI PEM blocks, a JSON array of JWKs or a JWK Set',
    got: 'never',
  },
};
// Compiled once per process (Ajv caches by schema) and run once: no meta-schema check and no messages (the
// kinds build the schemas, problem() words failures). The annotations are keywords Ajv ignores.
const ajv = new Ajv({ allErrors: true, verbose: true, validateSchema: false, messages: false });
ajv.addVocabulary(['env', 'accepts', 'shown', 'requiredWhen', 'errorMessage', 'decode', 'allOrNone']);
for (const [name, { check, got }] of Object.entries(FORMATS))
  ajv.addFormat(name, got === 'bad entries' ? (v: string) => list(v).every(check) : check);

/** A JSON Schema node; a leaf names its variable, says what docs/settings.md shows and how its value decodes. */
export interface Node {
  env?: string;
  properties?: Record<string, Node>;
  decode?: (value: string) => unknown;
  [keyword: string]: unknown;
}
/** A node whose value loads as a `T`; `Unset`: it may be left unset. Both are phantoms, for the types only. */
export type Schema<T, Unset extends boolean = boolean> = Node & { '~value'?: T; '~unset'?: Unset };
export type Static<S> = S extends Schema<infer T> ? T : never;
type Props<P> = { [K in keyof P as P[K] extends Schema<unknown, true> ? K : never]?: Static<P[K]> } & {
  [K in keyof P as P[K] extends Schema<unknown, true> ? never : K]: Static<P[K]>;
};

/** What docs/settings.md says about a setting; `{NAME}` in a default stands for that setting's value. */
type About = { doc: string; default?: string | number; shown?: string };
type Unset<A, U> = A extends { default: unknown } ? false : U;

/** One environment variable: its schema, annotated with its name and its row in docs/settings.md. */
export function env<T, U extends boolean, const A extends About>(name: string, schema: Schema<T, U>, about: A) {
  const { doc, ...rest } = about;
  return Object.assign(schema, { env: name, description: doc, ...rest }) as Schema<T, Unset<A, U>>;
}
export const group = <P extends Record<string, Node>>(properties: P) =>
  ({ type: 'object', properties }) as Schema<Props<P>, false>;
/** A group set whole or not at all: each of its settings is then required. */
export const allOrNone = <T>(schema: Schema<T, false>) =>
  Object.assign(schema, { allOrNone: true }) as Schema<Required<T>, true>;

/** A leaf that may be unset; without `decode` its value is the (string or integer) text itself. */
const leaf = <T = string, U extends boolean = true>(accepts: string, schema: object, decode?: (v: string) => T) =>
  ({ type: 'string', ...schema, accepts, decode }) as Schema<T, U>;
const integer = (accepts: string, minimum: number, maximum = INT32_MAX) =>
  leaf<number>(accepts, { type: 'integer', minimum, maximum });
const TTL_S: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** The kinds of setting pieces.ts declares; `accepts` is what docs/settings.md says a value looks like. */
export const kind = {
  text: (accepts: string, options: object = {}) => leaf(accepts, options),
  int: (min: number, max = INT32_MAX) =>
    integer(max === INT32_MAX ? `integer, at least ${min}` : `integer ${min} to ${max}`, min, max),
  millis: () => integer('milliseconds', 1),
  oneOf: <const V extends string[]>(...values: V) =>
    leaf<V[number]>(values.map((v) => `\`${v}\``).join(', '), { enum: values }),
  /** `1` or `true` turns it on; off by default. */
  bool: () =>
    leaf<boolean, false>('`0`, `1`', { enum: ['0', '1', 'true', 'false'], default: '0' }, (v) => /^(1|true)$/.test(v)),
  url: () => leaf('http(s) URL', { format: 'url' }),
  /** A URL others are appended to: its trailing slash is dropped. */
  base: () => leaf('http(s) URL', { format: 'url' }, (v) => v.replace(/\/$/, '')),
  /** A secret: only its length is checked and reported. */
  secret: (minLength: number) => leaf(`secret, ${minLength}+ characters`, { minLength }),
  host: () => leaf('host name or IP', { format: 'host' }),
  rate: () => leaf('`count/window`', { format: 'rate' }, parseRate),
  durations: () =>
    leaf('1 to 20 durations (`ms`, `s`, `m`, `h`)', { format: 'durations' }, (v) => v.split(',').map(ms)),
  list: (accepts: string, format: 'proxies' | 'origins') => leaf(accepts, { format }, list),
  /** A lifetime as a number and a unit (`7d`), in seconds. */
  ttl: () =>
    leaf(
      'a duration: `s`, `m`, `h` or `d`',
      { pattern: '^[1-9][0-9]{0,6}[smhd]$', errorMessage: 'a number and a unit (s, m, h, d), as 7d' },
      (v) => Number(v.slice(0, -1)) * TTL_S[v.at(-1)!],
    ),
  cartKey: () => leaf('a P-256 private key: PKCS#8 PEM or JWK', { format: 'cart-key' }, parseSigningKey),
  cartPublicKeys: () =>
    leaf('SPKI PEM blocks, a JSON array of JWKs or a JWK Set', { format: 'cart-public-keys' }, (v) =>
      v ? (parsePreviousKeys(v) ?? []) : [],
    ),
};

/** `items` (a listing of `a, b, c`) as a message says it: `a or b`, `one of a, b or c`. */
const oneOf = (items: readonly unknown[]) =>
  (items.length > 2 ? `one of ${items.slice(0, -1).join(', ')}` : `${items[0]}`) + ` or ${items.at(-1)}`;

function problem(env: string, node: Node, value: string): string {
  const format = FORMATS[node.format as string];
  const must =
    (node.errorMessage as string | undefined) ??
    format?.must ??
    (node.enum ? oneOf(node.enum as string[]) : undefined) ??
    (node.minLength ? `at least ${node.minLength} characters` : `an integer from ${node.minimum} to ${node.maximum}`);
  const bad = format?.got === 'bad entries' ? String(list(value).filter((v) => !format.check(v))) : value;
  const got = format?.got === 'never' ? '' : ` (got ${node.minLength ? value.length : JSON.stringify(bad)})`;
  return `${env} must be ${must.replace('{default}', String(node.default))}${got}`;
}

const decoded = (node: Node, value: unknown): unknown =>
  node.properties
    ? value && Object.fromEntries(Object.entries(value).map(([key, v]) => [key, decoded(node.properties![key], v)]))
    : node.decode && value !== undefined
      ? node.decode(value as string)
      : value;

/**
 * Reads and checks the variables `schema` names (default: the environment with `.env`); empty counts as unset.
 * Every problem is reported at once, on one line, as a ConfigError.
 */
export function loadSettings<S extends Node>(schema: S, source = process.env): Static<S> {
  const values: Record<string, string | undefined> = {};
  const problems: string[] = [];
  const read = (node: Node): unknown => {
    if (node.properties) {
      const entries = Object.entries(node.properties).map(([key, child]) => [key, read(child)] as const);
      const set = entries.filter(([, v]) => v !== undefined);
      if (!node.allOrNone || set.length === entries.length) return Object.fromEntries(set);
      const names = Object.values(node.properties).map((child) => child.env);
      if (set.length > 0) problems.push(`${names.join(' and ')} go together: set both or neither`);
      return undefined;
    }
    const env = node.env!;
    const fallback = node.default === undefined ? undefined : String(node.default);
    const value = source[env] || fallback?.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
    const [when, is] = (node.requiredWhen as string | undefined)?.split('=') ?? [];
    if (when && values[when] === is && !value) problems.push(`${env} (${when}=${is}) is not set`);
    values[env] = value;
    return node.type === 'integer' && /^[0-9]+$/.test(value ?? '') ? Number(value) : value;
  };
  const raw = read(schema);
  const failed = new Set(ajv.validate(schema, raw) ? [] : ajv.errors!.map((error) => error.parentSchema as Node));
  // A default is checked through the settings it names, which report themselves.
  for (const { env, ...node } of failed) if (env && source[env]) problems.push(problem(env, node, values[env]!));
  if (problems.length > 0)
    throw new ConfigError(
      problems.length === 1 ? problems[0] : `${problems.length} invalid settings: ${problems.join('; ')}`,
    );
  return decoded(schema, raw) as Static<S>;
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
