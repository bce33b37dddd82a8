import 'dotenv/config';
import ipaddr from 'ipaddr.js';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The one place that reads process.env. Every process (server, worker, bff, CLIs) loads its
 * settings here, validated at boot, so a typo in a variable fails loudly instead of at 3 a.m.
 * Each check's message completes "NAME ...": `PORT must be an integer from 1 to 65535 (got "99999")`.
 */

/** Quotes a value for a message (secrets are never echoed: their checks report lengths only). */
const got = (value: string) => `(got ${JSON.stringify(value)})`;

/** A string setting with a check whose message follows the variable's name. */
function Checked(check: (value: string) => boolean, error: (value: string) => string, options: { default?: string } = {}) {
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
  const listed = values.length > 2 ? `one of ${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values.join(' or ');
  return Checked((v) => values.includes(v), (v) => `must be ${listed} ${got(v)}`, fallback === undefined ? {} : { default: fallback });
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
  return Checked(isHttpUrl, (v) => `must be an absolute http:// or https:// URL ${got(v)}`, fallback === undefined ? {} : { default: fallback });
}

/** A secret: only its length is checked and reported. */
function Secret(minLength: number) {
  return Checked((v) => v.length >= minLength, (v) => `must be at least ${minLength} characters (got ${v.length})`);
}

const Host = (fallback: string) => Checked((v) => v.trim() !== '' && !/\s/.test(v), (v) => `must be a host name or IP address ${got(v)}`, { default: fallback });

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
  return Checked(isRateSpec, (v) => `must be count/window with a count of at least 1 and a window above 0 in ms, s, m or h, like ${fallback} ${got(v)}`, { default: fallback });
}

/** TRUST_PROXY's entries, as today: split on commas, trimmed, empty ones dropped. */
const trustProxyEntries = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);

const isIp = (v: string) => ipaddr.IPv4.isValidFourPartDecimal(v) || ipaddr.IPv6.isValid(v);
const isCidr = (v: string) => ipaddr.IPv4.isValidCIDRFourPartDecimal(v) || ipaddr.IPv6.isValidCIDR(v);
/** `10.0.0.0/255.0.0.0`: the netmask form Fastify's proxy-addr takes too. */
const isNetmask = (v: string) => {
  const [address, mask, extra] = v.split('/');
  return extra === undefined && mask !== undefined && ipaddr.IPv4.isValidFourPartDecimal(address) && ipaddr.IPv4.isValidFourPartDecimal(mask);
};
/** proxy-addr's named ranges, which Fastify accepts in trustProxy. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyEntry = (entry: string) => isIp(entry) || isCidr(entry) || isNetmask(entry) || PROXY_RANGE_NAMES.has(entry);

const TrustProxy = Checked(
  (v) => trustProxyEntries(v).every(isProxyEntry),
  (v) => {
    const bad = trustProxyEntries(v).filter((entry) => !isProxyEntry(entry));
    return `must be comma-separated IP addresses, CIDRs or loopback/linklocal/uniquelocal (like 127.0.0.1,10.0.0.0/8) ${got(bad.join(','))}`;
  },
  { default: '' },
);

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = Type.Object({
  PORT: Int(1, 65535, '3000'),
  HOST: Host('127.0.0.1'),
  BFF_PORT: Int(1, 65535, '8080'),
  BFF_HOST: Host('127.0.0.1'),
  BFF_UPSTREAM_URL: HttpUrl('http://127.0.0.1:3000'),
  PUBLIC_BASE_URL: Type.Optional(HttpUrl()),
  DATABASE_URL: Type.String({ default: 'postgres://postgres@127.0.0.1:5432/test' }),
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379' }),
  QUEUE_PREFIX: Checked((v) => /^[A-Za-z0-9_-]+$/.test(v), (v) => `must be letters, digits, _ and - only ${got(v)}`, { default: 'cs' }),
  PUBLIC_ANON_KEY: Type.Optional(Secret(16)),
  AUTH_JWT_SECRET: Type.Optional(Secret(32)),
  AUTH_JWKS_URL: Type.Optional(HttpUrl()),
  AUTH_ISSUER: Type.Optional(Type.String()),
  AUTH_AUDIENCE: Type.Optional(Type.String()),
  FILE_SIGNING_SECRET: Type.Optional(Secret(32)),
  TOKEN_ENCRYPTION_KEY: Type.Optional(Secret(32)),
  STORAGE_DRIVER: OneOf(['local', 's3'], 'local'),
  STORAGE_DIR: Type.String({ default: '.data/storage' }),
  SMTP_URL: Type.Optional(Type.String()),
  MAIL_FROM: Type.String({ default: 'config-share <no-reply@config-share.local>' }),
  SMTP_ALLOW_PRIVATE: Bool,
  TRUST_PROXY: TrustProxy,
  WEBHOOK_ALLOW_INSECURE: Bool,
  LIBRARY_ALLOW_PRIVATE: Bool,
  LIBRARY_TIMEOUT_MS: Millis('8000'),
  LIBRARY_A_API_URL: HttpUrl('https://api.polyhaven.com'),
  LIBRARY_B_API_URL: HttpUrl('https://api.sketchfab.com/v3'),
  LIBRARY_B_OAUTH_URL: HttpUrl('https://sketchfab.com/oauth2'),
  LIBRARY_B_CLIENT_ID: Type.Optional(Type.String()),
  LIBRARY_B_CLIENT_SECRET: Type.Optional(Type.String()),
  LIBRARY_B_REDIRECT_URL: Type.Optional(HttpUrl()),
  LIBRARY_C_API_URL: HttpUrl('https://api.si.edu/openaccess/api/v1.0'),
  LIBRARY_C_API_KEY: Type.Optional(Type.String()),
  DASHBOARD_URL: HttpUrl('http://127.0.0.1:8080/demo/'),
  SIGNED_MODEL_LIMIT: Int(1, INT32_MAX, '20'),
  RATE_LIMIT_SHARE_READ: RateSpec('120/5m'),
  RATE_LIMIT_SUBMIT: RateSpec('30/5m'),
  RATE_LIMIT_SEARCH: RateSpec('60/1m'),
  RATE_LIMIT_IMPORT: RateSpec('30/10m'),
  RATE_LIMIT_UPLOAD: RateSpec('60/10m'),
  DEFAULT_MODEL_LIMIT: Int(0, INT32_MAX, '100'),
  WORKER_CONCURRENCY: Int(1, INT32_MAX, '4'),
  WORKER_LOCK_DURATION_MS: Millis('30000'),
  OUTBOX_RELAY_INTERVAL_MS: Millis('2000'),
  OUTBOX_RESEND_AFTER_MS: Millis('60000'),
  LOG_LEVEL: OneOf(LOG_LEVELS, 'info'),
});

type Env = Static<typeof EnvSchema>;

/** A rate limit as `count/window` (`120/5m`), in the shape @fastify/rate-limit takes. */
export interface RateLimit {
  max: number;
  timeWindow: number;
}

function parseRate(spec: string): RateLimit {
  const [, count, amount, unit] = RATE_PATTERN.exec(spec)!;
  return { max: Number(count), timeWindow: Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS] };
}

const flag = (v: string | undefined) => v === '1' || v === 'true';
const withoutTrailingSlash = (url: string) => url.replace(/\/$/, '');

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** One message per variable, in the schema's order: `NAME what is expected (got ...)`. */
function describeProblems(env: unknown): string[] {
  const byName = new Map<string, string>();
  for (const error of Value.Errors(EnvSchema, env)) {
    const name = error.instancePath.slice(1) || 'settings';
    // A refinement's message is the one written for people; the others are TypeBox's.
    if (!byName.has(name) || error.keyword === '~refine') byName.set(name, `${name} ${error.message}`);
  }
  return [...byName.values()];
}

export function loadConfig(source: Record<string, string | undefined> = process.env) {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const env = Value.Default(EnvSchema, raw) as Env;
  if (!Value.Check(EnvSchema, env)) {
    const problems = describeProblems(env);
    // One line, so a process that stops on it prints one line.
    throw new ConfigError(problems.length === 1 ? problems[0] : `${problems.length} invalid settings: ${problems.join('; ')}`);
  }
  const port = Number(env.PORT);
  return {
    port,
    host: env.HOST,
    bffPort: Number(env.BFF_PORT),
    bffHost: env.BFF_HOST,
    bffUpstreamUrl: withoutTrailingSlash(env.BFF_UPSTREAM_URL),
    publicBaseUrl: withoutTrailingSlash(env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${port}`),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    queuePrefix: env.QUEUE_PREFIX,
    publicAnonKey: env.PUBLIC_ANON_KEY,
    auth: {
      jwtSecret: env.AUTH_JWT_SECRET,
      jwksUrl: env.AUTH_JWKS_URL,
      issuer: env.AUTH_ISSUER,
      audience: env.AUTH_AUDIENCE,
    },
    fileSigningSecret: env.FILE_SIGNING_SECRET,
    tokenEncryptionKey: env.TOKEN_ENCRYPTION_KEY,
    storage: { driver: env.STORAGE_DRIVER as 'local' | 's3', dir: env.STORAGE_DIR },
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /** Projects' own SMTP hosts may be private addresses on any port (development and tests only). */
    smtpAllowPrivate: flag(env.SMTP_ALLOW_PRIVATE),
    trustProxy: trustProxyEntries(env.TRUST_PROXY),
    webhookAllowInsecure: flag(env.WEBHOOK_ALLOW_INSECURE),
    libraryAllowPrivate: flag(env.LIBRARY_ALLOW_PRIVATE),
    libraryTimeoutMs: Number(env.LIBRARY_TIMEOUT_MS),
    dashboardUrl: env.DASHBOARD_URL,
    /** The online libraries' endpoints and credentials, keyed by provider (read and validated; used by the online libraries issue). */
    libraries: {
      library_a: { apiUrl: withoutTrailingSlash(env.LIBRARY_A_API_URL) },
      library_b: {
        apiUrl: withoutTrailingSlash(env.LIBRARY_B_API_URL),
        oauthUrl: withoutTrailingSlash(env.LIBRARY_B_OAUTH_URL),
        clientId: env.LIBRARY_B_CLIENT_ID,
        clientSecret: env.LIBRARY_B_CLIENT_SECRET,
        redirectUrl: env.LIBRARY_B_REDIRECT_URL,
      },
      library_c: { apiUrl: withoutTrailingSlash(env.LIBRARY_C_API_URL), apiKey: env.LIBRARY_C_API_KEY },
    },
    signedModelLimit: Number(env.SIGNED_MODEL_LIMIT),
    rateLimits: {
      shareRead: parseRate(env.RATE_LIMIT_SHARE_READ),
      submit: parseRate(env.RATE_LIMIT_SUBMIT),
      search: parseRate(env.RATE_LIMIT_SEARCH),
      import: parseRate(env.RATE_LIMIT_IMPORT),
      upload: parseRate(env.RATE_LIMIT_UPLOAD),
    },
    defaultModelLimit: Number(env.DEFAULT_MODEL_LIMIT),
    worker: {
      concurrency: Number(env.WORKER_CONCURRENCY),
      lockDurationMs: Number(env.WORKER_LOCK_DURATION_MS),
      relayIntervalMs: Number(env.OUTBOX_RELAY_INTERVAL_MS),
      resendAfterMs: Number(env.OUTBOX_RESEND_AFTER_MS),
    },
    logLevel: env.LOG_LEVEL as (typeof LOG_LEVELS)[number],
  };
}

export type Config = ReturnType<typeof loadConfig>;

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
