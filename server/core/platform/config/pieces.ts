import { Type } from 'typebox';
import {
  ConfigError,
  LOG_LEVELS,
  flag,
  loadSettings,
  parseDurationList,
  parseRate,
  requireSetting,
  setting,
  settingsPiece,
  withoutTrailingSlash,
} from './settings.js';

/**
 * The settings, in groups that belong together. Each process's config module (server/config.ts,
 * worker/config.ts, bff/config.ts) lists the pieces it needs; shared code asks for the pieces'
 * result types (`StorageSettings`, ...), never for a whole process's config.
 */
const {
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
} = setting;

export const logging = settingsPiece({ LOG_LEVEL: OneOf(LOG_LEVELS, 'info') }, (env) => ({
  logLevel: env.LOG_LEVEL as (typeof LOG_LEVELS)[number],
}));

export const postgres = settingsPiece(
  {
    DATABASE_URL: Type.String({ default: 'postgres://postgres@127.0.0.1:5432/test' }),
    DATABASE_MIGRATION_URL: Type.Optional(Type.String()),
    DATABASE_POOL_SIZE: Int(1, 1000, '10'),
  },
  (env) => ({
    databaseUrl: env.DATABASE_URL,
    /** Where migrations run at start: a direct connection when DATABASE_URL is a PgBouncer in transaction mode (they take a session lock). */
    migrationDatabaseUrl: env.DATABASE_MIGRATION_URL || env.DATABASE_URL,
    /** Connections each server process keeps at most (the worker sizes its own from its concurrency). */
    databasePoolSize: Number(env.DATABASE_POOL_SIZE),
  }),
);

export const redis = settingsPiece(
  {
    REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379' }),
    QUEUE_PREFIX: Checked(
      (v) => /^[A-Za-z0-9_-]+$/.test(v),
      (v) => `must be letters, digits, _ and - only ${got(v)}`,
      { default: 'cs' },
    ),
  },
  (env) => ({
    redisUrl: env.REDIS_URL,
    /** Prefix of every Redis key and channel of this deployment (queues, rate limits, notices). */
    queuePrefix: env.QUEUE_PREFIX,
  }),
);

const S3_PREFIX = /^(?:[A-Za-z0-9._-]+\/)*$/;

export const storage = settingsPiece(
  {
    STORAGE_DRIVER: OneOf(['local', 's3'], 'local'),
    STORAGE_DIR: Type.String({ default: '.data/storage' }),
    S3_ENDPOINT: Type.Optional(HttpUrl()),
    S3_REGION: Type.String({ default: 'us-east-1' }),
    S3_BUCKET: Type.Optional(
      Checked(
        (v) => /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v),
        (v) => `must be an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens) ${got(v)}`,
      ),
    ),
    S3_ACCESS_KEY_ID: Type.Optional(Type.String()),
    S3_SECRET_ACCESS_KEY: Type.Optional(Type.String()),
    S3_FORCE_PATH_STYLE: Bool,
    S3_PREFIX: Checked(
      (v) => v === '' || S3_PREFIX.test(v),
      (v) => `must be empty or folders ending in / (like "config-share/") ${got(v)}`,
      { default: '' },
    ),
    S3_PRESIGN_SECONDS: Int(1, 7 * 24 * 3600, '300'),
    STORAGE_SWEEP_GRACE_MS: Millis(String(6 * 3600_000)),
    STORAGE_SWEEP_INTERVAL_MS: Millis(String(3600_000)),
  },
  (env) => ({
    storage: {
      driver: env.STORAGE_DRIVER as 'local' | 's3',
      dir: env.STORAGE_DIR,
      s3: {
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        bucket:
          env.STORAGE_DRIVER === 's3'
            ? requireSetting(env.S3_BUCKET, 'S3_BUCKET (STORAGE_DRIVER=s3)')
            : (env.S3_BUCKET ?? ''),
        // Both or neither: without them the SDK's default chain (environment, profile, instance role) applies.
        credentials: s3Credentials(env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY),
        forcePathStyle: flag(env.S3_FORCE_PATH_STYLE),
        prefix: env.S3_PREFIX,
        /** Lifetime of the presigned GET that `/files/...` redirects to (default 300 s). */
        presignSeconds: Number(env.S3_PRESIGN_SECONDS),
      },
      /** Objects no row claims are removed once they are this old (default 6 h): longer than any write takes to commit. */
      sweepGraceMs: Number(env.STORAGE_SWEEP_GRACE_MS),
      /** How often a worker runs the sweeper (default hourly; one run at a time across all workers). */
      sweepIntervalMs: Number(env.STORAGE_SWEEP_INTERVAL_MS),
    },
  }),
);

function s3Credentials(accessKeyId: string | undefined, secretAccessKey: string | undefined) {
  if (!accessKeyId && !secretAccessKey) return undefined;
  if (!accessKeyId || !secretAccessKey)
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  return { accessKeyId, secretAccessKey };
}

export const shutdown = settingsPiece({ SHUTDOWN_TIMEOUT_MS: Millis('10000') }, (env) => ({
  /** How long a process may take to stop on SIGTERM (finish requests, hand jobs back, close pools) before it exits anyway. */
  shutdownTimeoutMs: Number(env.SHUTDOWN_TIMEOUT_MS),
}));

export const proxy = settingsPiece({ TRUST_PROXY: TrustProxy }, (env) => ({
  trustProxy: trustProxyEntries(env.TRUST_PROXY),
}));

export const serverListen = settingsPiece(
  { PORT: Int(1, 65535, '3000'), HOST: Host('127.0.0.1'), PUBLIC_BASE_URL: Type.Optional(HttpUrl()) },
  (env) => ({
    port: Number(env.PORT),
    host: env.HOST,
    /** The server's public origin, used in signed file URLs. */
    publicBaseUrl: withoutTrailingSlash(env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${env.PORT}`),
  }),
);

export const bffListen = settingsPiece(
  { BFF_PORT: Int(1, 65535, '8080'), BFF_HOST: Host('127.0.0.1'), BFF_UPSTREAM_URL: HttpUrl('http://127.0.0.1:3000') },
  (env) => ({
    bffPort: Number(env.BFF_PORT),
    bffHost: env.BFF_HOST,
    bffUpstreamUrl: withoutTrailingSlash(env.BFF_UPSTREAM_URL),
  }),
);

export const bffCache = settingsPiece(
  {
    BFF_CACHE_TTL_MS: Millis('5000'),
    BFF_CACHE_MAX_BYTES: Int(1024, INT32_MAX, '67108864'),
    BFF_RATE_SLICE: Int(1, 1000, '5'),
  },
  (env) => ({
    bffCache: {
      /** How long after the server last confirmed it a kept answer is served without asking again (default 5000). */
      ttlMs: Number(env.BFF_CACHE_TTL_MS),
      /** Bound of the kept answers' bodies and headers, in bytes (default 64 MiB). */
      maxBytes: Number(env.BFF_CACHE_MAX_BYTES),
      /** Read budget units a BFF takes from Redis at once per client, spent on cache hits (default 5). */
      rateSlice: Number(env.BFF_RATE_SLICE),
    },
  }),
);

export const publicKey = settingsPiece({ PUBLIC_ANON_KEY: Type.Optional(Secret(16)) }, (env) => ({
  publicAnonKey: env.PUBLIC_ANON_KEY,
}));

export const auth = settingsPiece(
  {
    AUTH_JWT_SECRET: Type.Optional(Secret(32)),
    AUTH_JWKS_URL: Type.Optional(HttpUrl()),
    AUTH_ISSUER: Type.Optional(Type.String()),
    AUTH_AUDIENCE: Type.Optional(Type.String()),
  },
  (env) => ({
    auth: {
      jwtSecret: env.AUTH_JWT_SECRET,
      jwksUrl: env.AUTH_JWKS_URL,
      issuer: env.AUTH_ISSUER,
      audience: env.AUTH_AUDIENCE,
    },
  }),
);

export const fileSigning = settingsPiece({ FILE_SIGNING_SECRET: Type.Optional(Secret(32)) }, (env) => ({
  fileSigningSecret: env.FILE_SIGNING_SECRET,
}));

export const tokenEncryption = settingsPiece({ TOKEN_ENCRYPTION_KEY: Type.Optional(Secret(32)) }, (env) => ({
  tokenEncryptionKey: env.TOKEN_ENCRYPTION_KEY,
}));

export const mail = settingsPiece(
  {
    SMTP_URL: Type.Optional(Type.String()),
    MAIL_FROM: Type.String({ default: 'config-share <no-reply@config-share.local>' }),
    SMTP_ALLOW_PRIVATE: Bool,
  },
  (env) => ({
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /** Projects' own SMTP hosts may be private addresses on any port (development and tests only). */
    smtpAllowPrivate: flag(env.SMTP_ALLOW_PRIVATE),
  }),
);

export const webhooks = settingsPiece(
  {
    WEBHOOK_ALLOW_INSECURE: Bool,
    WEBHOOK_RETRY_SCHEDULE: DurationList('5s,5m,30m,2h,5h,10h,10h'),
    WEBHOOK_CONCURRENCY: Int(1, 1000, '64'),
    WEBHOOK_ENDPOINT_CONCURRENCY: Int(1, 1000, '8'),
  },
  (env) => ({
    webhooks: {
      /** http:// and private addresses allowed as webhook targets (development and tests only; default false). */
      allowInsecure: flag(env.WEBHOOK_ALLOW_INSECURE),
      /** The wait before each retry of a failed delivery (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); tests shorten it. */
      retryScheduleMs: parseDurationList(env.WEBHOOK_RETRY_SCHEDULE),
      /** Webhook requests a worker process has in flight at once (default 64); up to 4x as many attempts are in progress. */
      concurrency: Number(env.WEBHOOK_CONCURRENCY),
      /** Of the attempts in progress, at most this many to one webhook (default 8), so a slow receiver cannot take every place. */
      endpointConcurrency: Number(env.WEBHOOK_ENDPOINT_CONCURRENCY),
    },
  }),
);

export const libraries = settingsPiece(
  {
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
  },
  (env) => ({
    libraryAllowPrivate: flag(env.LIBRARY_ALLOW_PRIVATE),
    libraryTimeoutMs: Number(env.LIBRARY_TIMEOUT_MS),
    dashboardUrl: env.DASHBOARD_URL,
    /** The online libraries' endpoints and credentials, keyed by provider. */
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
  }),
);

/** An origin as browsers send it: scheme, host and optional port, nothing else. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}
const originList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The owner console and the operator's queue view (issue 15): which browser origins may call the
 * owner API (CORS), and whether the BullMQ dashboard is mounted, behind which secret.
 */
export const operatorConsole = settingsPiece(
  {
    CONSOLE_ORIGINS: Checked(
      (v) => originList(v).every(isOrigin),
      (v) =>
        `must be comma-separated origins like https://console.example.com or http://127.0.0.1:8080 (no path, no trailing slash) ${got(
          originList(v)
            .filter((o) => !isOrigin(o))
            .join(','),
        )}`,
      { default: '' },
    ),
    QUEUE_DASHBOARD: Bool,
    OPERATOR_SECRET: Type.Optional(Secret(16)),
  },
  (env) => {
    const queueDashboard = flag(env.QUEUE_DASHBOARD);
    if (queueDashboard && !env.OPERATOR_SECRET)
      throw new ConfigError(
        'QUEUE_DASHBOARD=1 needs OPERATOR_SECRET (at least 16 characters): the queue view shows job data and can retry or remove jobs',
      );
    return {
      /** Browser origins whose pages may call the owner API (default none: no CORS headers). */
      consoleOrigins: originList(env.CONSOLE_ORIGINS),
      /** The BullMQ dashboard at /admin/queues (default off). */
      queueDashboard,
      /** The operator's password for the queue view (HTTP basic auth, any user name). */
      operatorSecret: env.OPERATOR_SECRET,
    };
  },
);

/** Where the owner console (served by the BFF) sends its browser's owner API calls. */
export const consoleApi = settingsPiece({ CONSOLE_API_URL: Type.Optional(HttpUrl()) }, (env) => ({
  /** The API origin as browsers reach it (default: BFF_UPSTREAM_URL, right when the BFF and the browser see the server at the same address). */
  consoleApiUrl: env.CONSOLE_API_URL ? withoutTrailingSlash(env.CONSOLE_API_URL) : undefined,
}));

/**
 * The public read's budget per client, on its own: the server and the BFF both spend it (one
 * counter in Redis, see server/core/services/public-share/read-budget.ts).
 */
export const shareReadLimit = settingsPiece({ RATE_LIMIT_SHARE_READ: RateSpec('120/5m') }, (env) => ({
  shareReadRate: parseRate(env.RATE_LIMIT_SHARE_READ),
}));

export const limits = settingsPiece(
  {
    SIGNED_MODEL_LIMIT: Int(1, INT32_MAX, '20'),
    ...shareReadLimit.properties,
    RATE_LIMIT_SUBMIT: RateSpec('30/5m'),
    RATE_LIMIT_SEARCH: RateSpec('60/1m'),
    RATE_LIMIT_IMPORT: RateSpec('30/10m'),
    RATE_LIMIT_UPLOAD: RateSpec('60/10m'),
    DEFAULT_MODEL_LIMIT: Int(0, INT32_MAX, '100'),
  },
  (env) => ({
    signedModelLimit: Number(env.SIGNED_MODEL_LIMIT),
    rateLimits: {
      shareRead: shareReadLimit.read(env).shareReadRate,
      submit: parseRate(env.RATE_LIMIT_SUBMIT),
      search: parseRate(env.RATE_LIMIT_SEARCH),
      import: parseRate(env.RATE_LIMIT_IMPORT),
      upload: parseRate(env.RATE_LIMIT_UPLOAD),
    },
    defaultModelLimit: Number(env.DEFAULT_MODEL_LIMIT),
  }),
);

export const worker = settingsPiece(
  {
    WORKER_CONCURRENCY: Int(1, INT32_MAX, '4'),
    WORKER_LOCK_DURATION_MS: Millis('30000'),
    OUTBOX_RELAY_INTERVAL_MS: Millis('2000'),
    OUTBOX_RESEND_AFTER_MS: Millis('60000'),
    WORKER_HEALTH_PORT: Int(0, 65535, '3001'),
    WORKER_HEALTH_HOST: Host('127.0.0.1'),
  },
  (env) => ({
    worker: {
      concurrency: Number(env.WORKER_CONCURRENCY),
      lockDurationMs: Number(env.WORKER_LOCK_DURATION_MS),
      relayIntervalMs: Number(env.OUTBOX_RELAY_INTERVAL_MS),
      resendAfterMs: Number(env.OUTBOX_RESEND_AFTER_MS),
      /** Where the worker answers /health and /ready (0: any free port, printed at start). */
      healthPort: Number(env.WORKER_HEALTH_PORT),
      healthHost: env.WORKER_HEALTH_HOST,
    },
  }),
);

export const cpu = settingsPiece({ CPU_THREADS: Int(1, 64, '2') }, (env) => ({
  /** Threads of the process's pool for CPU work (PDF rendering, model checks); more tasks wait their turn. */
  cpuThreads: Number(env.CPU_THREADS),
}));

/** Every piece: what `npm start` checks before it starts anything, and the settings reference. */
export const ALL_PIECES = [
  logging,
  postgres,
  redis,
  storage,
  shutdown,
  proxy,
  serverListen,
  bffListen,
  bffCache,
  publicKey,
  shareReadLimit,
  auth,
  fileSigning,
  tokenEncryption,
  mail,
  webhooks,
  libraries,
  limits,
  worker,
  cpu,
  operatorConsole,
  consoleApi,
] as const;

type Result<P> = P extends { read(env: never): infer R } ? R : never;
export type LoggingSettings = Result<typeof logging>;
export type PostgresSettings = Result<typeof postgres>;
export type RedisSettings = Result<typeof redis>;
export type StorageSettings = Result<typeof storage>;
export type ShutdownSettings = Result<typeof shutdown>;
export type ServerListenSettings = Result<typeof serverListen>;
export type AuthSettings = Result<typeof auth>;
export type MailSettings = Result<typeof mail>;
export type LimitsSettings = Result<typeof limits>;
export type ShareReadLimitSettings = Result<typeof shareReadLimit>;
export type BffCacheSettings = Result<typeof bffCache>;
export type WorkerSettings = Result<typeof worker>;
export type LibrariesSettings = Result<typeof libraries>;
export type CpuSettings = Result<typeof cpu>;
export type WebhookSettings = Result<typeof webhooks>;
export type OperatorConsoleSettings = Result<typeof operatorConsole>;

/** Every setting at once: `npm start` checks them all before it starts anything. */
export const loadAllSettings = (source?: Record<string, string | undefined>) => loadSettings(ALL_PIECES, source);
export type AllSettings = ReturnType<typeof loadAllSettings>;
