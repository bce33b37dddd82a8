import 'dotenv/config';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The one place that reads process.env. Every process (server, worker, bff, CLIs) loads its
 * settings here, validated at boot, so a typo in a variable fails loudly instead of at 3 a.m.
 */

const Bool = Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('true'), Type.Literal('false')]);
const RateSpec = Type.String({ pattern: '^[0-9]+/[0-9]+(ms|s|m|h)$' });

const EnvSchema = Type.Object({
  PORT: Type.String({ default: '3000', pattern: '^[0-9]+$' }),
  HOST: Type.String({ default: '127.0.0.1' }),
  BFF_PORT: Type.String({ default: '8080', pattern: '^[0-9]+$' }),
  BFF_HOST: Type.String({ default: '127.0.0.1' }),
  BFF_UPSTREAM_URL: Type.String({ default: 'http://127.0.0.1:3000' }),
  PUBLIC_BASE_URL: Type.Optional(Type.String()),
  DATABASE_URL: Type.String({ default: 'postgres://postgres@127.0.0.1:5432/test' }),
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379' }),
  QUEUE_PREFIX: Type.String({ default: 'cs', pattern: '^[A-Za-z0-9_-]+$' }),
  PUBLIC_ANON_KEY: Type.Optional(Type.String({ minLength: 16 })),
  AUTH_JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  AUTH_JWKS_URL: Type.Optional(Type.String()),
  AUTH_ISSUER: Type.Optional(Type.String()),
  AUTH_AUDIENCE: Type.Optional(Type.String()),
  FILE_SIGNING_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  TOKEN_ENCRYPTION_KEY: Type.Optional(Type.String()),
  STORAGE_DRIVER: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  STORAGE_DIR: Type.String({ default: '.data/storage' }),
  SMTP_URL: Type.Optional(Type.String()),
  MAIL_FROM: Type.String({ default: 'config-share <no-reply@config-share.local>' }),
  SMTP_ALLOW_PRIVATE: Bool,
  TRUST_PROXY: Type.String({ default: '' }),
  WEBHOOK_ALLOW_INSECURE: Bool,
  LIBRARY_ALLOW_PRIVATE: Bool,
  LIBRARY_TIMEOUT_MS: Type.String({ default: '8000', pattern: '^[0-9]+$' }),
  DASHBOARD_URL: Type.String({ default: 'http://127.0.0.1:8080/demo/' }),
  SIGNED_MODEL_LIMIT: Type.String({ default: '20', pattern: '^[0-9]+$' }),
  RATE_LIMIT_SHARE_READ: RateSpec,
  RATE_LIMIT_SUBMIT: RateSpec,
  RATE_LIMIT_SEARCH: RateSpec,
  RATE_LIMIT_IMPORT: RateSpec,
  RATE_LIMIT_UPLOAD: RateSpec,
  DEFAULT_MODEL_LIMIT: Type.String({ default: '100', pattern: '^[0-9]+$' }),
  WORKER_CONCURRENCY: Type.String({ default: '4', pattern: '^[0-9]+$' }),
  WORKER_LOCK_DURATION_MS: Type.String({ default: '30000', pattern: '^[0-9]+$' }),
  OUTBOX_RELAY_INTERVAL_MS: Type.String({ default: '2000', pattern: '^[0-9]+$' }),
  OUTBOX_RESEND_AFTER_MS: Type.String({ default: '60000', pattern: '^[0-9]+$' }),
  LOG_LEVEL: Type.String({ default: 'info' }),
});

type Env = Static<typeof EnvSchema>;

/** A rate limit as `count/window` (`120/5m`), in the shape @fastify/rate-limit takes. */
export interface RateLimit {
  max: number;
  timeWindow: number;
}

function parseRate(spec: string): RateLimit {
  const [, count, amount, unit] = /^([0-9]+)\/([0-9]+)(ms|s|m|h)$/.exec(spec)!;
  const unitMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  return { max: Number(count), timeWindow: Number(amount) * unitMs };
}

const flag = (v: string | undefined) => v === '1' || v === 'true';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(source: Record<string, string | undefined> = process.env) {
  const defaults: Record<string, string> = {
    WEBHOOK_ALLOW_INSECURE: '0',
    SMTP_ALLOW_PRIVATE: '0',
    LIBRARY_ALLOW_PRIVATE: '0',
    RATE_LIMIT_SHARE_READ: '120/5m',
    RATE_LIMIT_SUBMIT: '30/5m',
    RATE_LIMIT_SEARCH: '60/1m',
    RATE_LIMIT_IMPORT: '30/10m',
    RATE_LIMIT_UPLOAD: '60/10m',
  };
  const raw: Record<string, string> = { ...defaults };
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(EnvSchema, raw) as Env;
  if (!Value.Check(EnvSchema, withDefaults)) {
    const problems = [...Value.Errors(EnvSchema, withDefaults)].map((e) => `${e.instancePath.slice(1) || 'env'}: ${e.message}`);
    throw new ConfigError(`invalid settings:\n  ${problems.join('\n  ')}`);
  }
  const env = withDefaults;
  const port = Number(env.PORT);
  return {
    port,
    host: env.HOST,
    bffPort: Number(env.BFF_PORT),
    bffHost: env.BFF_HOST,
    bffUpstreamUrl: env.BFF_UPSTREAM_URL.replace(/\/$/, ''),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${port}`).replace(/\/$/, ''),
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
    storage: { driver: env.STORAGE_DRIVER, dir: env.STORAGE_DIR },
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /** Projects' own SMTP hosts may be private addresses on any port (development and tests only). */
    smtpAllowPrivate: flag(env.SMTP_ALLOW_PRIVATE),
    trustProxy: env.TRUST_PROXY.split(',').map((s) => s.trim()).filter(Boolean),
    webhookAllowInsecure: flag(env.WEBHOOK_ALLOW_INSECURE),
    libraryAllowPrivate: flag(env.LIBRARY_ALLOW_PRIVATE),
    libraryTimeoutMs: Number(env.LIBRARY_TIMEOUT_MS),
    dashboardUrl: env.DASHBOARD_URL,
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
    logLevel: env.LOG_LEVEL,
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** Fails at boot with a clear message when a secret the process needs is missing. */
export function requireSetting<T>(value: T | undefined, name: string): T {
  if (value === undefined || value === '') throw new ConfigError(`${name} is not set`);
  return value;
}
