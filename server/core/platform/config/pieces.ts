import {
  ConfigError,
  LOG_LEVELS,
  flag,
  listEntries,
  loadSettings,
  parseDurationList,
  parseRate,
  requireSetting,
  setting,
  settingsPiece,
  withoutTrailingSlash,
  type ProcessName,
} from './settings.js';
import { parsePreviousKeys, parseSigningKey } from '../../domain/cart-keys.js';

/**
 * Every setting declared once (check, default, readers, README line via `npm run docs:settings`). Shared code
 * asks for a piece's result type, never a whole process's config, so it runs in any process.
 */
const { text, checked, int, millis, oneOf, bool, httpUrl, secret, host, rate, durations, trustProxy, INT32_MAX, got } =
  setting;

/** Tuning that nobody needed to turn: constants, in the config so the code reads them where it always did. */
const STORAGE_SWEEP_GRACE_MS = 6 * 3600_000;
const STORAGE_SWEEP_INTERVAL_MS = 3600_000;
const BFF_CACHE_MAX_BYTES = 64 * 1024 * 1024;

const ALL = ['server', 'worker', 'bff'] as const;

const logging = settingsPiece(
  ALL,
  {
    LOG_LEVEL: oneOf(LOG_LEVELS, {
      default: 'info',
      doc:
        'pino log level (`silent` in tests); the processes write JSON lines, which `npm start` keeps in ' +
        '`.data/logs/npm-start.log` (warnings and errors also on the terminal).',
    }),
  },
  (env) => ({ logLevel: env.LOG_LEVEL as (typeof LOG_LEVELS)[number] }),
);

const postgres = settingsPiece(
  ['server', 'worker'],
  {
    DATABASE_URL: text('Postgres URL', {
      default: 'postgres://postgres@127.0.0.1:5432/test',
      shown: '`postgres://postgres@127.0.0.1:5432/test`; unset under `npm start`: embedded Postgres',
      doc: 'Postgres.',
    }),
    DATABASE_MIGRATION_URL: text('Postgres URL', {
      shown: '`DATABASE_URL`',
      doc: 'Where migrations run at start: a direct connection when `DATABASE_URL` is a PgBouncer in transaction mode.',
    }),
    DATABASE_POOL_SIZE: int(1, 1000, {
      default: '10',
      doc: 'Postgres connections each server process keeps at most (a worker sizes its pool from its concurrency).',
    }),
  },
  (env) => ({
    databaseUrl: env.DATABASE_URL,
    /** Migrations take a session lock, which a PgBouncer in transaction mode cannot hold. */
    migrationDatabaseUrl: env.DATABASE_MIGRATION_URL || env.DATABASE_URL,
    databasePoolSize: Number(env.DATABASE_POOL_SIZE),
  }),
);

export const redis = settingsPiece(
  ALL,
  {
    REDIS_URL: text('Redis URL', {
      default: 'redis://127.0.0.1:6379',
      doc: 'Redis: queues, rate limits, caches, OAuth states.',
    }),
    QUEUE_PREFIX: checked(
      'letters, digits, `_`, `-`',
      (v) => /^[A-Za-z0-9_-]+$/.test(v),
      (v) => `must be letters, digits, _ and - only ${got(v)}`,
      {
        default: 'cs',
        doc: 'Prefix of every Redis key and channel, so several deployments or test runs can share one Redis.',
      },
    ),
  },
  (env) => ({ redisUrl: env.REDIS_URL, queuePrefix: env.QUEUE_PREFIX }),
);

const S3_PREFIX = /^(?:[A-Za-z0-9._-]+\/)*$/;

export const storage = settingsPiece(
  ['server', 'worker'],
  {
    STORAGE_DRIVER: oneOf(['local', 's3'], {
      default: 'local',
      doc: '`local` (files under `STORAGE_DIR`) or `s3` (any S3-compatible bucket; see docs/storage.md).',
    }),
    STORAGE_DIR: text('folder', { default: '.data/storage', doc: 'Folder of the local storage driver.' }),
    S3_ENDPOINT: httpUrl({
      shown: 'unset (AWS S3)',
      doc: "The store's URL for anything but AWS (MinIO, R2, B2); browsers follow `/files/` redirects to it.",
    }),
    S3_REGION: text('region', { default: 'us-east-1', doc: "The bucket's region (`auto` for R2)." }),
    S3_BUCKET: checked(
      'S3 bucket name',
      (v) => /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v),
      (v) => `must be an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens) ${got(v)}`,
      {
        shown: 'unset; required with `STORAGE_DRIVER=s3`',
        doc: 'The bucket (it must exist; every process checks it at boot).',
      },
    ),
    S3_ACCESS_KEY_ID: text('text', {
      doc: "Set with `S3_SECRET_ACCESS_KEY` or neither: then the AWS SDK's default chain (environment, role) applies.",
    }),
    S3_SECRET_ACCESS_KEY: text('text', { doc: 'The secret of `S3_ACCESS_KEY_ID`.' }),
    S3_FORCE_PATH_STYLE: bool({ doc: '`1` for stores that want `endpoint/bucket/key` URLs (MinIO, s3rver).' }),
    S3_PREFIX: checked(
      'folders ending in `/`',
      (v) => v === '' || S3_PREFIX.test(v),
      (v) => `must be empty or folders ending in / (like "config-share/") ${got(v)}`,
      {
        default: '',
        doc: 'A folder in the bucket for every key (`config-share/`), so one bucket can hold several installations.',
      },
    ),
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
        credentials: s3Credentials(env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY),
        forcePathStyle: flag(env.S3_FORCE_PATH_STYLE),
        prefix: env.S3_PREFIX,
      },
      /** Objects no row claims are removed once this old: longer than any write takes to commit. */
      sweepGraceMs: STORAGE_SWEEP_GRACE_MS,
      /** How often a worker runs the sweeper (one run at a time across all workers). */
      sweepIntervalMs: STORAGE_SWEEP_INTERVAL_MS,
    },
  }),
);

function s3Credentials(accessKeyId: string | undefined, secretAccessKey: string | undefined) {
  if (!accessKeyId && !secretAccessKey) return undefined;
  if (!accessKeyId || !secretAccessKey)
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  return { accessKeyId, secretAccessKey };
}

const shutdown = settingsPiece(
  ALL,
  {
    SHUTDOWN_TIMEOUT_MS: millis({
      default: '10000',
      doc: 'How long a process may take to stop on SIGTERM (finish requests, hand jobs back) before it exits anyway.',
    }),
  },
  (env) => ({ shutdownTimeoutMs: Number(env.SHUTDOWN_TIMEOUT_MS) }),
);

const proxy = settingsPiece(
  ['server', 'bff'],
  {
    TRUST_PROXY: trustProxy({
      default: '',
      shown: 'empty (`npm start`: `127.0.0.1,::1`)',
      doc: 'Comma-separated proxies whose `X-Forwarded-For` is believed; client IPs feed the rate limits.',
    }),
  },
  (env) => ({ trustProxy: listEntries(env.TRUST_PROXY) }),
);

const serverListen = settingsPiece(
  ['server'],
  {
    PORT: int(1, 65535, { default: '3000', doc: 'Server listen port.' }),
    HOST: host({ default: '127.0.0.1', doc: 'Server listen address.' }),
    PUBLIC_BASE_URL: httpUrl({
      shown: '`http://HOST:PORT`',
      doc: "The server's public origin, used in signed file URLs.",
    }),
  },
  (env) => ({
    port: Number(env.PORT),
    host: env.HOST,
    publicBaseUrl: withoutTrailingSlash(env.PUBLIC_BASE_URL ?? `http://${env.HOST}:${env.PORT}`),
  }),
);

const bffListen = settingsPiece(
  ['bff'],
  {
    BFF_PORT: int(1, 65535, { default: '8080', doc: 'BFF listen port.' }),
    BFF_HOST: host({ default: '127.0.0.1', doc: 'BFF listen address.' }),
    BFF_UPSTREAM_URL: httpUrl({
      default: 'http://127.0.0.1:3000',
      doc: 'The server the BFF fronts (a load balancer over N servers at scale).',
    }),
  },
  (env) => ({
    bffPort: Number(env.BFF_PORT),
    bffHost: env.BFF_HOST,
    bffUpstreamUrl: withoutTrailingSlash(env.BFF_UPSTREAM_URL),
  }),
);

export const bffCache = settingsPiece(
  ['bff'],
  {
    BFF_CACHE_TTL_MS: millis({
      default: '5000',
      doc: 'How long after the server last confirmed a public read the BFF answers it alone (share changes evict).',
    }),
  },
  (env) => ({
    bffCache: {
      ttlMs: Number(env.BFF_CACHE_TTL_MS),
      /** Bound of the kept answers' bodies and headers, in bytes. */
      maxBytes: BFF_CACHE_MAX_BYTES,
    },
  }),
);

const publicKey = settingsPiece(
  ['server', 'bff'],
  {
    PUBLIC_ANON_KEY: secret(16, {
      shown: 'generated by `npm start`',
      doc: 'The public key the share endpoints require in `apikey` and `Authorization: Bearer`; the BFF adds it.',
    }),
  },
  (env) => ({ publicAnonKey: env.PUBLIC_ANON_KEY }),
);

export const auth = settingsPiece(
  ['server'],
  {
    AUTH_JWT_SECRET: secret(32, {
      shown: 'generated by `npm start`',
      doc: 'HS256 secret that access tokens are verified (and `npm run token` tokens signed) with.',
    }),
    AUTH_JWKS_URL: httpUrl({ doc: 'Verify access tokens against this JWKS (RS256/ES256/EdDSA) instead.' }),
    AUTH_ISSUER: text('text', { doc: 'The issuer access tokens must name, when set.' }),
    AUTH_AUDIENCE: text('text', { doc: 'The audience access tokens must name, when set.' }),
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

const fileSigning = settingsPiece(
  ['server'],
  {
    FILE_SIGNING_SECRET: secret(32, {
      shown: 'generated by `npm start`',
      doc: 'HMAC key of the signed `/files/...` URLs.',
    }),
  },
  (env) => ({ fileSigningSecret: env.FILE_SIGNING_SECRET }),
);

const tokenEncryption = settingsPiece(
  ['server', 'worker'],
  {
    TOKEN_ENCRYPTION_KEY: secret(32, {
      shown: 'generated by `npm start`',
      doc: "Key of the library accounts' tokens at rest (AES-256-GCM).",
    }),
  },
  (env) => ({ tokenEncryptionKey: env.TOKEN_ENCRYPTION_KEY }),
);

export const mail = settingsPiece(
  ['worker'],
  {
    SMTP_URL: text('SMTP URL', {
      shown: 'unset (`npm start`: its catcher)',
      doc: 'Platform mail transport, used when a project has no SMTP settings of its own.',
    }),
    MAIL_FROM: text('address', { default: 'config-share <no-reply@config-share.local>', doc: 'Platform mail sender.' }),
    SMTP_ALLOW_PRIVATE: bool({
      doc: "`1` lets a project's own SMTP host be a private address, on any port (development and tests only).",
    }),
  },
  (env) => ({ smtpUrl: env.SMTP_URL, mailFrom: env.MAIL_FROM, smtpAllowPrivate: flag(env.SMTP_ALLOW_PRIVATE) }),
);

export const webhooks = settingsPiece(
  ['server', 'worker'],
  {
    WEBHOOK_ALLOW_INSECURE: bool({
      shown: '`0` (`1` under `npm start`)',
      doc: '`1` allows `http://` and private addresses as webhook targets (development and tests only).',
    }),
    WEBHOOK_RETRY_SCHEDULE: durations({
      default: '5s,5m,30m,2h,5h,10h,10h',
      doc: 'The wait before each retry of a failed delivery (+/-20 % jitter): attempts = entries + 1.',
    }),
    WEBHOOK_CONCURRENCY: int(1, 1000, {
      default: '64',
      doc: 'Webhook requests a worker process has in flight at once.',
    }),
    WEBHOOK_ENDPOINT_CONCURRENCY: int(1, 1000, {
      default: '8',
      doc: 'Of the attempts in progress, at most this many to one webhook, so a slow receiver cannot take every place.',
    }),
  },
  (env) => ({
    webhooks: {
      allowInsecure: flag(env.WEBHOOK_ALLOW_INSECURE),
      retryScheduleMs: parseDurationList(env.WEBHOOK_RETRY_SCHEDULE),
      /** Up to 4x as many attempts are in progress (claiming, recording). */
      concurrency: Number(env.WEBHOOK_CONCURRENCY),
      endpointConcurrency: Number(env.WEBHOOK_ENDPOINT_CONCURRENCY),
    },
  }),
);

export const libraries = settingsPiece(
  ['server', 'worker'],
  {
    LIBRARY_ALLOW_PRIVATE: bool({
      doc: '`1` lets library calls and downloads reach private addresses (development and tests only).',
    }),
    LIBRARY_TIMEOUT_MS: millis({
      default: '8000',
      doc: 'Per-library timeout of each search, model read and token call.',
    }),
    LIBRARY_A_API_URL: httpUrl({
      default: 'https://api.polyhaven.com',
      doc: 'library_a, Poly Haven (no key); `npm start` offline: its fixture libraries.',
    }),
    LIBRARY_B_API_URL: httpUrl({ default: 'https://api.sketchfab.com/v3', doc: 'library_b, Sketchfab: its API.' }),
    LIBRARY_B_OAUTH_URL: httpUrl({ default: 'https://sketchfab.com/oauth2', doc: 'library_b: its OAuth endpoints.' }),
    LIBRARY_B_CLIENT_ID: text('text', {
      doc: 'library_b OAuth client; without it and its secret, connect and library_b imports answer 503.',
    }),
    LIBRARY_B_CLIENT_SECRET: text('text', { doc: 'The secret of `LIBRARY_B_CLIENT_ID`.' }),
    LIBRARY_B_REDIRECT_URL: httpUrl({
      shown: '`PUBLIC_BASE_URL/external-providers/library_b/callback`',
      doc: 'The OAuth callback registered with Sketchfab.',
    }),
    LIBRARY_C_API_URL: httpUrl({
      default: 'https://api.si.edu/openaccess/api/v1.0',
      doc: 'library_c, Smithsonian Open Access.',
    }),
    LIBRARY_C_API_KEY: text('text', {
      shown: 'unset (`DEMO_KEY`)',
      doc: "library_c's api.data.gov key (`DEMO_KEY` has a low rate).",
    }),
    DASHBOARD_URL: httpUrl({
      default: 'http://127.0.0.1:8080/demo/',
      doc: 'Where the library_b OAuth callback sends the browser back (`npm start`: the owner console).',
    }),
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

/** The owner console's CORS and the operator's queue view (Bull Board) with its secret. */
const operatorConsole = settingsPiece(
  ['server'],
  {
    CONSOLE_ORIGINS: checked(
      'origins',
      (v) => listEntries(v).every(isOrigin),
      (v) =>
        'must be comma-separated origins like https://console.example.com or http://127.0.0.1:8080 ' +
        `(no path, no trailing slash) ${got(
          listEntries(v)
            .filter((o) => !isOrigin(o))
            .join(','),
        )}`,
      {
        default: '',
        shown: "empty (`npm start`: the BFF's origin)",
        doc: 'Comma-separated browser origins whose pages may call the owner API (CORS); others get no CORS headers.',
      },
    ),
    OPERATOR_SECRET: secret(16, {
      shown: 'unset (`npm start`: generated)',
      doc:
        'Mounts the queue view (Bull Board) at `/admin/queues`, behind this password (HTTP basic auth, any user ' +
        'name); unset: no queue view.',
    }),
  },
  (env) => ({
    consoleOrigins: listEntries(env.CONSOLE_ORIGINS),
    operatorSecret: env.OPERATOR_SECRET,
  }),
);

const consoleApi = settingsPiece(
  ['bff'],
  {
    CONSOLE_API_URL: httpUrl({
      shown: '`BFF_UPSTREAM_URL`',
      doc: "The API origin the owner console's browser calls, when browsers reach the server elsewhere than the BFF.",
    }),
  },
  (env) => ({ consoleApiUrl: env.CONSOLE_API_URL ? withoutTrailingSlash(env.CONSOLE_API_URL) : undefined }),
);

/** The public read's budget per client: the server and the BFF both spend it (one counter in Redis). */
export const shareReadLimit = settingsPiece(
  ['bff'],
  {
    RATE_LIMIT_SHARE_READ: rate({
      default: '120/5m',
      doc: 'Public reads per client IP, one budget for the server and the BFF.',
    }),
  },
  (env) => ({ shareReadRate: parseRate(env.RATE_LIMIT_SHARE_READ) }),
);

const limits = settingsPiece(
  ['server'],
  {
    SIGNED_MODEL_LIMIT: int(1, INT32_MAX, { default: '20', doc: 'Models that get a signed URL per public read.' }),
    ...shareReadLimit.settings,
    RATE_LIMIT_SUBMIT: rate({ default: '30/5m', doc: 'Public submits per client IP.' }),
    RATE_LIMIT_CONFIGURATIONS: rate({ default: '60/5m', doc: 'Cart configurations created per client IP.' }),
    RATE_LIMIT_EVENTS: rate({
      default: '600/5m',
      doc: 'Visitor events per client IP, counted per event (a call of 20 spends 20); a call past it is refused whole.',
    }),
    RATE_LIMIT_SEARCH: rate({ default: '60/1m', doc: 'Library searches per person.' }),
    RATE_LIMIT_IMPORT: rate({ default: '30/10m', doc: 'Library import starts per person.' }),
    RATE_LIMIT_UPLOAD: rate({ default: '60/10m', doc: 'Asset uploads per workspace.' }),
  },
  (env) => ({
    signedModelLimit: Number(env.SIGNED_MODEL_LIMIT),
    rateLimits: {
      shareRead: shareReadLimit.read(env).shareReadRate,
      submit: parseRate(env.RATE_LIMIT_SUBMIT),
      configurations: parseRate(env.RATE_LIMIT_CONFIGURATIONS),
      events: parseRate(env.RATE_LIMIT_EVENTS),
      search: parseRate(env.RATE_LIMIT_SEARCH),
      import: parseRate(env.RATE_LIMIT_IMPORT),
      upload: parseRate(env.RATE_LIMIT_UPLOAD),
    },
  }),
);

export const worker = settingsPiece(
  ['worker'],
  {
    WORKER_CONCURRENCY: int(1, INT32_MAX, {
      default: '4',
      doc: 'Jobs a worker process runs at once per queue (each family of jobs has its own queue).',
    }),
    WORKER_LOCK_DURATION_MS: millis({
      default: '30000',
      doc: 'BullMQ lock duration: a job whose worker stops renewing it is retried elsewhere.',
    }),
    OUTBOX_RELAY_INTERVAL_MS: millis({
      default: '2000',
      doc: "How often the worker's relay looks for pending work (besides at once when a server publishes some).",
    }),
    OUTBOX_RESEND_AFTER_MS: millis({
      default: '60000',
      doc: 'How long after its hand-over to BullMQ an unfinished outbox entry is checked, and enqueued again if lost.',
    }),
    WORKER_HEALTH_PORT: int(0, 65535, {
      default: '0',
      shown: '`0`: a free port (`npm start`: `3001` when free)',
      doc:
        'Where a worker answers `GET /health` and `GET /ready`. `0`: a free port, logged at start ' +
        '("worker health on http://..."), so several workers on one host never collide.',
    }),
    WORKER_HEALTH_HOST: host({ default: '127.0.0.1', doc: "Address of the worker's health server." }),
  },
  (env) => ({
    worker: {
      concurrency: Number(env.WORKER_CONCURRENCY),
      lockDurationMs: Number(env.WORKER_LOCK_DURATION_MS),
      relayIntervalMs: Number(env.OUTBOX_RELAY_INTERVAL_MS),
      resendAfterMs: Number(env.OUTBOX_RESEND_AFTER_MS),
      healthPort: Number(env.WORKER_HEALTH_PORT),
      healthHost: env.WORKER_HEALTH_HOST,
    },
  }),
);

const TTL = /^([1-9][0-9]{0,6})([smhd])$/;
const TTL_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;
const ttlSeconds = (value: string) => {
  const [, amount, unit] = TTL.exec(value)!;
  return Number(amount) * TTL_SECONDS[unit as keyof typeof TTL_SECONDS];
};

/** The cart (docs/cart.md): the key that signs cart tokens, the keys kept after a rotation, lifetimes. */
const cart = settingsPiece(
  ['server'],
  {
    CART_SIGNING_KEY: checked(
      'a P-256 private key: PKCS#8 PEM or JWK',
      (v) => parseSigningKey(v) !== null,
      // Never the value: it is a private key.
      () => 'must be a P-256 (ES256) private key as PKCS#8 PEM or as a JWK',
      {
        shown: 'generated by `npm start`; none: no cart (503 `cart_not_configured`)',
        doc: 'Signs cart tokens; its public half is served at `/.well-known/jwks.json`.',
      },
    ),
    CART_SIGNING_KEYS_PREVIOUS: checked(
      'SPKI PEM blocks, a JSON array of JWKs or a JWK Set',
      (v) => parsePreviousKeys(v) !== null,
      () => 'must hold only P-256 public keys: SPKI PEM blocks, a JSON array of JWKs or a JWK Set',
      { doc: 'Public keys of earlier signing keys, kept in the JWKS so their tokens verify until they expire.' },
    ),
    CART_TOKEN_TTL: checked(
      'a duration: `s`, `m`, `h` or `d`',
      (v) => TTL.test(v),
      (v) => `must be a number and a unit (s, m, h, d), as 7d ${got(v)}`,
      { default: '7d', doc: 'How long a cart token is valid.' },
    ),
    CONFIGURATION_RETENTION_DAYS: int(1, 36500, {
      default: '365',
      doc: 'Days a cart configuration is kept after it was last created.',
    }),
  },
  (env) => ({
    cart: {
      signingKey: env.CART_SIGNING_KEY ? parseSigningKey(env.CART_SIGNING_KEY) : null,
      previousKeys: env.CART_SIGNING_KEYS_PREVIOUS ? (parsePreviousKeys(env.CART_SIGNING_KEYS_PREVIOUS) ?? []) : [],
      tokenTtlSeconds: ttlSeconds(env.CART_TOKEN_TTL),
      retentionDays: Number(env.CONFIGURATION_RETENTION_DAYS),
    },
  }),
);

/** How long raw visitor events are kept; the day counters stay as long as the project. */
const visitorEvents = settingsPiece(
  ['worker'],
  {
    VISITOR_EVENT_RETENTION_DAYS: int(1, 36500, {
      default: '90',
      doc: 'Days raw visitor events (view, option.changed, ...) are kept; the analytics counters stay.',
    }),
  },
  (env) => ({ visitorEventRetentionDays: Number(env.VISITOR_EVENT_RETENTION_DAYS) }),
);

const cpu = settingsPiece(
  ['server', 'worker'],
  {
    CPU_THREADS: int(1, 64, {
      default: '2',
      doc: 'Threads of the pool for CPU work (model checks, request PDFs); further tasks wait their turn.',
    }),
  },
  (env) => ({ cpuThreads: Number(env.CPU_THREADS) }),
);

/** Every piece, in the settings table's order: what `npm start` checks before it starts anything. */
export const ALL_PIECES = [
  serverListen,
  bffListen,
  postgres,
  redis,
  publicKey,
  auth,
  fileSigning,
  tokenEncryption,
  storage,
  mail,
  proxy,
  webhooks,
  libraries,
  operatorConsole,
  consoleApi,
  bffCache,
  limits,
  shareReadLimit,
  worker,
  visitorEvents,
  cart,
  shutdown,
  cpu,
  logging,
] as const;

type AnyPiece = (typeof ALL_PIECES)[number];
type PiecesFor<N extends ProcessName> = AnyPiece extends infer U
  ? U extends { processes: readonly (infer Q)[] }
    ? N extends Q
      ? U
      : never
    : never
  : never;

/** The pieces a process reads, as their `processes` declare. */
export const piecesFor = <N extends ProcessName>(name: N) =>
  ALL_PIECES.filter((piece) => (piece.processes as readonly ProcessName[]).includes(name)) as PiecesFor<N>[];

type Result<P> = P extends { read(env: never): infer R } ? R : never;
export type RedisSettings = Result<typeof redis>;
export type StorageSettings = Result<typeof storage>;
export type AuthSettings = Result<typeof auth>;
export type MailSettings = Result<typeof mail>;
export type ShareReadLimitSettings = Result<typeof shareReadLimit>;
export type BffCacheSettings = Result<typeof bffCache>;
export type WorkerSettings = Result<typeof worker>;
export type LibrariesSettings = Result<typeof libraries>;
export type WebhookSettings = Result<typeof webhooks>;

/** Every setting at once: `npm start` checks them all before it starts anything. */
export const loadAllSettings = (source?: Record<string, string | undefined>) => loadSettings(ALL_PIECES, source);
export type AllSettings = ReturnType<typeof loadAllSettings>;
