import { describe, it, expect } from 'vitest';
import { ConfigError } from '#core/platform/config/settings.js';
import { loadAllSettings } from '#core/platform/config/pieces.js';
import { TEST_SECRETS } from '../../helpers/test-env.js';

/** The message loadAllSettings refuses `env` (over the test secrets) with; fails when it is accepted. */
function refusal(env: Record<string, string>): string {
  try {
    loadAllSettings({ ...TEST_SECRETS, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('loadAllSettings (every piece)', () => {
  it('accepts the defaults, the library settings included', () => {
    const config = loadAllSettings({ ...TEST_SECRETS });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      bffPort: 8080,
      bffHost: '127.0.0.1',
      bffUpstreamUrl: 'http://127.0.0.1:3000',
      publicBaseUrl: 'http://127.0.0.1:3000',
      redisUrl: 'redis://127.0.0.1:6379',
      trustProxy: [],
      libraryTimeoutMs: 8000,
      dashboardUrl: 'http://127.0.0.1:8080/demo/',
      signedModelLimit: 20,
      logLevel: 'info',
      tokenEncryptionKey: TEST_SECRETS.TOKEN_ENCRYPTION_KEY,
      worker: { concurrency: 4, lockDurationMs: 30_000, relayIntervalMs: 2000, resendAfterMs: 60_000 },
      rateLimits: {
        shareRead: { max: 120, timeWindow: 300_000 },
        submit: { max: 30, timeWindow: 300_000 },
        search: { max: 60, timeWindow: 60_000 },
        import: { max: 30, timeWindow: 600_000 },
        upload: { max: 60, timeWindow: 600_000 },
      },
    });
    expect(config.libraries).toEqual({
      library_a: { apiUrl: 'https://api.polyhaven.com' },
      library_b: {
        apiUrl: 'https://api.sketchfab.com/v3',
        oauthUrl: 'https://sketchfab.com/oauth2',
        clientId: undefined,
        clientSecret: undefined,
        redirectUrl: undefined,
      },
      library_c: { apiUrl: 'https://api.si.edu/openaccess/api/v1.0', apiKey: undefined },
    });
  });

  it('accepts valid values, the edges of each range, and reads empty values as unset', () => {
    const config = loadAllSettings({
      ...TEST_SECRETS,
      PORT: '65535',
      BFF_PORT: '1',
      HOST: '0.0.0.0',
      PUBLIC_BASE_URL: 'https://share.example.com/',
      BFF_UPSTREAM_URL: 'http://lb.internal:3000/',
      AUTH_JWKS_URL: 'https://auth.example.com/.well-known/jwks.json',
      DASHBOARD_URL: 'https://app.example.com/libraries',
      LIBRARY_A_API_URL: 'http://127.0.0.1:4001/',
      LIBRARY_B_CLIENT_ID: 'client',
      LIBRARY_B_CLIENT_SECRET: 'secret',
      LIBRARY_B_REDIRECT_URL: 'https://share.example.com/libraries/library_b/callback',
      LIBRARY_C_API_KEY: 'key',
      LOG_LEVEL: 'silent',
      TRUST_PROXY: '127.0.0.1, ::1,,10.0.0.0/8,fd00::/8,loopback,uniquelocal,172.16.0.0/255.240.0.0',
      RATE_LIMIT_SEARCH: '1/1ms',
      SIGNED_MODEL_LIMIT: '1',
      WORKER_CONCURRENCY: '1',
      LIBRARY_TIMEOUT_MS: '',
    });
    expect(config.port).toBe(65535);
    expect(config.bffPort).toBe(1);
    expect(config.publicBaseUrl).toBe('https://share.example.com');
    expect(config.bffUpstreamUrl).toBe('http://lb.internal:3000');
    expect(config.logLevel).toBe('silent');
    // Split on commas, trimmed, empty entries dropped (Fastify's trustProxy takes the list).
    expect(config.trustProxy).toEqual([
      '127.0.0.1',
      '::1',
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
      'uniquelocal',
      '172.16.0.0/255.240.0.0',
    ]);
    expect(config.rateLimits.search).toEqual({ max: 1, timeWindow: 1 });
    expect(config.signedModelLimit).toBe(1);
    expect(config.worker.concurrency).toBe(1);
    expect(config.libraryTimeoutMs).toBe(8000);
    expect(config.libraries.library_a.apiUrl).toBe('http://127.0.0.1:4001');
    expect(config.libraries.library_b).toMatchObject({
      clientId: 'client',
      clientSecret: 'secret',
      redirectUrl: 'https://share.example.com/libraries/library_b/callback',
    });
    expect(config.libraries.library_c.apiKey).toBe('key');
  });

  it('refuses ports outside 1-65535, naming the variable and the value', () => {
    expect(refusal({ PORT: '99999' })).toBe('PORT must be an integer from 1 to 65535 (got "99999")');
    expect(refusal({ PORT: '0' })).toMatch(/^PORT must be an integer from 1 to 65535/);
    expect(refusal({ PORT: 'http' })).toMatch(/^PORT must be an integer/);
    expect(refusal({ PORT: '-1' })).toMatch(/^PORT must be an integer/);
    expect(refusal({ BFF_PORT: '65536' })).toBe('BFF_PORT must be an integer from 1 to 65535 (got "65536")');
    expect(refusal({ BFF_PORT: '80.5' })).toMatch(/^BFF_PORT must be an integer/);
  });

  it('refuses blank hosts', () => {
    expect(refusal({ HOST: '   ' })).toMatch(/^HOST must be /);
    expect(refusal({ BFF_HOST: ' ' })).toMatch(/^BFF_HOST must be /);
  });

  it.each([
    'PUBLIC_BASE_URL',
    'BFF_UPSTREAM_URL',
    'AUTH_JWKS_URL',
    'DASHBOARD_URL',
    'LIBRARY_A_API_URL',
    'LIBRARY_B_API_URL',
    'LIBRARY_B_OAUTH_URL',
    'LIBRARY_B_REDIRECT_URL',
    'LIBRARY_C_API_URL',
  ])('refuses %s unless it is an absolute http(s) URL', (name) => {
    for (const bad of [
      'example.com',
      '/relative/path',
      'ftp://example.com',
      'javascript:alert(1)',
      'http://',
      'http:example.com',
      'not a url',
    ]) {
      expect(refusal({ [name]: bad })).toBe(
        `${name} must be an absolute http:// or https:// URL (got ${JSON.stringify(bad)})`,
      );
    }
  });

  it("refuses a LOG_LEVEL that is not one of pino's", () => {
    expect(refusal({ LOG_LEVEL: 'verbose' })).toBe(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace or silent (got "verbose")',
    );
    expect(refusal({ LOG_LEVEL: 'INFO' })).toMatch(/^LOG_LEVEL must be one of/);
  });

  it('refuses a TRUST_PROXY entry that is not an IP address, a CIDR or a named range, naming the bad entries', () => {
    for (const bad of [
      'true',
      'loopbacks',
      '127.0.0',
      '10.0.0.0/33',
      'fd00::/129',
      '256.1.1.1',
      'proxy.internal',
      '10.0.0.0/255.0.0',
    ]) {
      expect(refusal({ TRUST_PROXY: bad })).toMatch(
        new RegExp(
          `^TRUST_PROXY must be comma-separated IP addresses, CIDRs or loopback/linklocal/uniquelocal .*\\(got ` +
            `"${bad.replace(/\./g, '\\.')}"\\)$`,
        ),
      );
    }
    expect(refusal({ TRUST_PROXY: '127.0.0.1, nope ,::1,10.0.0.0/40' })).toMatch(/\(got "nope,10\.0\.0\.0\/40"\)$/);
  });

  it('refuses secrets that are too short, without echoing them', () => {
    const message = refusal({ TOKEN_ENCRYPTION_KEY: 'short-key' });
    expect(message).toBe('TOKEN_ENCRYPTION_KEY must be at least 32 characters (got 9)');
    expect(message).not.toContain('short-key');
    expect(refusal({ AUTH_JWT_SECRET: 'x'.repeat(31) })).toMatch(/^AUTH_JWT_SECRET must be at least 32 characters/);
    expect(refusal({ FILE_SIGNING_SECRET: 'x'.repeat(31) })).toMatch(
      /^FILE_SIGNING_SECRET must be at least 32 characters/,
    );
    expect(refusal({ PUBLIC_ANON_KEY: 'x'.repeat(15) })).toMatch(/^PUBLIC_ANON_KEY must be at least 16 characters/);
  });

  it.each([
    'RATE_LIMIT_SHARE_READ',
    'RATE_LIMIT_SUBMIT',
    'RATE_LIMIT_SEARCH',
    'RATE_LIMIT_IMPORT',
    'RATE_LIMIT_UPLOAD',
  ])('refuses a %s with a count below 1, an empty window or a bad form', (name) => {
    for (const bad of ['0/5m', '10/0m', '10/0ms', '10', '10/5d', '10/m', '-1/5m', 'ten/5m']) {
      expect(refusal({ [name]: bad })).toMatch(
        new RegExp(
          `^${name} must be count/window with a count of at least 1 and a window above 0 .*\\(got "${bad}"\\)$`,
        ),
      );
    }
  });

  it('refuses limits and concurrency outside their ranges', () => {
    expect(refusal({ SIGNED_MODEL_LIMIT: '0' })).toMatch(
      /^SIGNED_MODEL_LIMIT must be an integer from 1 to \d+ \(got "0"\)$/,
    );
    expect(refusal({ WORKER_CONCURRENCY: '0' })).toMatch(
      /^WORKER_CONCURRENCY must be an integer from 1 to \d+ \(got "0"\)$/,
    );
    expect(refusal({ SIGNED_MODEL_LIMIT: '1.5' })).toMatch(/^SIGNED_MODEL_LIMIT must be an integer/);
    expect(refusal({ WORKER_CONCURRENCY: 'four' })).toMatch(/^WORKER_CONCURRENCY must be an integer/);
  });

  it('refuses the other settings with a message naming them', () => {
    expect(refusal({ STORAGE_DRIVER: 'gcs' })).toBe('STORAGE_DRIVER must be local or s3 (got "gcs")');
    expect(refusal({ WEBHOOK_ALLOW_INSECURE: 'yes' })).toMatch(
      /^WEBHOOK_ALLOW_INSECURE must be one of 0, 1, true or false/,
    );
    expect(refusal({ QUEUE_PREFIX: 'a b' })).toMatch(/^QUEUE_PREFIX must be /);
    expect(refusal({ LIBRARY_TIMEOUT_MS: '0' })).toMatch(/^LIBRARY_TIMEOUT_MS must be an integer from 1 to/);
    expect(refusal({ OUTBOX_RELAY_INTERVAL_MS: '0' })).toMatch(
      /^OUTBOX_RELAY_INTERVAL_MS must be an integer from 1 to/,
    );
  });

  it('reports every problem at once, on one line', () => {
    const message = refusal({ PORT: '99999', LOG_LEVEL: 'loud', TRUST_PROXY: 'nope', RATE_LIMIT_SEARCH: '0/1m' });
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^4 invalid settings: /);
    for (const name of ['PORT', 'LOG_LEVEL', 'TRUST_PROXY', 'RATE_LIMIT_SEARCH'])
      expect(message).toContain(`${name} must be`);
  });
});
