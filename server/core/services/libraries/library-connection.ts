import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Db } from '../../platform/db/client.js';
import type { Libraries } from '../../platform/libraries/index.js';
import { createTokenCipher } from '../../platform/token-cipher.js';
import type { AllSettings, LibrariesSettings, RedisSettings } from '../../platform/config/pieces.js';
import { createLibraryConnectionRepository } from '../../repositories/library-connections.js';
import { LibraryError, providerNotConfigured } from '../../domain/libraries/library-errors.js';
import type { ServiceLog } from '../service-deps.js';

/**
 * The person's library_b account (docs/libraries.md): OAuth2 with a single-use `state` kept 10 minutes in
 * Redis; tokens sealed at rest, refreshed on expiry, never returned or logged.
 */
export interface LibraryConnectionDeps {
  db: Db;
  /** Fail-fast Redis: single-use OAuth states. */
  redis: Redis;
  libraries: Libraries;
  log: ServiceLog;
}

/** The settings the server and the worker both load for it; without TOKEN_ENCRYPTION_KEY nothing can connect. */
export type LibraryConnectionSettings = LibrariesSettings &
  Pick<RedisSettings, 'queuePrefix'> &
  Pick<AllSettings, 'tokenEncryptionKey'>;

/** Lifetime of an authorize URL's state (interface: single use, valid 10 minutes). */
const OAUTH_STATE_SECONDS = 600;
/** A token this close to its expiry is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;
const PROVIDER = 'library_b';

/**
 * Built the same way by every process from its settings. `ownCallback`: where the library sends the browser back
 * when LIBRARY_B_REDIRECT_URL is unset (the server's callback route; the worker, which never starts an authorize
 * flow, has none).
 */
export function createLibraryConnectionService(
  deps: LibraryConnectionDeps,
  settings: LibraryConnectionSettings,
  ownCallback: string | null = null,
) {
  const { redis, log } = deps;
  const prefix = settings.queuePrefix;
  const libraryB = deps.libraries.library_b;
  const cipher = settings.tokenEncryptionKey ? createTokenCipher(settings.tokenEncryptionKey) : null;
  const redirectUri = settings.libraries.library_b.redirectUrl ?? ownCallback;
  const repo = createLibraryConnectionRepository(deps.db);
  const stateKey = (state: string) => `${prefix}:oauth:${PROVIDER}:${state}`;
  const available = () => libraryB.importAvailable() && cipher !== null && redirectUri !== null;
  const signal = () => AbortSignal.timeout(settings.libraryTimeoutMs);

  function dashboard(status: 'connected' | 'error', reason?: string): string {
    const url = new URL(settings.dashboardUrl);
    url.searchParams.set('provider', PROVIDER);
    url.searchParams.set('status', status);
    if (reason) url.searchParams.set('reason', reason);
    return url.href;
  }

  return {
    available,

    async status(personId: string) {
      const row = await repo.get(personId, PROVIDER);
      return {
        available: available(),
        connected: !!row,
        username: row?.username ?? null,
        displayName: row?.displayName ?? null,
        profileUrl: row?.profileUrl ?? null,
        connectedAt: row?.connectedAt.toISOString() ?? null,
      };
    },

    /** The authorize URL for the person; its state is single use and lives 10 minutes. */
    async connect(personId: string): Promise<string> {
      if (!available()) throw providerNotConfigured(PROVIDER);
      const state = randomBytes(32).toString('base64url');
      await redis.set(stateKey(state), JSON.stringify({ personId }), 'EX', OAUTH_STATE_SECONDS);
      return libraryB.oauth.authorizeUrl(state, redirectUri!);
    },

    /**
     * The browser's return from the library: answers DASHBOARD_URL with status=connected or status=error, never
     * throwing for what the library or browser sent. The state is taken with GETDEL so it works once.
     */
    async callback(query: { code?: string; state?: string; error?: string }): Promise<string> {
      if (!available()) return dashboard('error', 'not_configured');
      if (!query.state) return dashboard('error', 'invalid_state');
      let owner: { personId?: string } | null;
      try {
        const raw = await redis.getdel(stateKey(query.state));
        owner = raw ? (JSON.parse(raw) as { personId?: string }) : null;
      } catch (error) {
        log.warn({ err: error }, 'library_b callback: the OAuth state could not be read');
        return dashboard('error', 'unavailable');
      }
      if (!owner?.personId) return dashboard('error', 'invalid_state');
      if (query.error || !query.code) return dashboard('error', 'denied');
      try {
        const tokens = await libraryB.oauth.exchangeCode(query.code, redirectUri!, signal());
        const profile = await libraryB.oauth
          .profile(tokens.accessToken, signal())
          .catch(() => ({ username: null, displayName: null, profileUrl: null }));
        await repo.upsert(owner.personId, PROVIDER, {
          accessTokenEnc: cipher!.encrypt(tokens.accessToken),
          refreshTokenEnc: tokens.refreshToken ? cipher!.encrypt(tokens.refreshToken) : null,
          expiresAt: tokens.expiresIn ? new Date(Date.now() + tokens.expiresIn * 1000) : null,
          scope: tokens.scope,
          ...profile,
        });
        return dashboard('connected');
      } catch (error) {
        // The message never holds a token: LibraryError messages carry statuses only.
        log.warn(
          { provider: PROVIDER, reason: (error as Error).message },
          'library_b callback: the code exchange failed',
        );
        return dashboard('error', 'exchange_failed');
      }
    },

    async disconnect(personId: string): Promise<void> {
      await repo.delete(personId, PROVIDER);
    },

    /**
     * A valid access token, refreshed when it expires within a minute. Throws LibraryError `auth` when the person
     * must connect again.
     */
    async accessToken(personId: string, callSignal: AbortSignal): Promise<string> {
      if (!cipher) throw new LibraryError('auth', PROVIDER, 'token encryption is not configured');
      const row = await repo.get(personId, PROVIDER);
      if (!row) throw new LibraryError('auth', PROVIDER, 'the account is not connected');
      const fresh = !row.expiresAt || row.expiresAt.getTime() - REFRESH_MARGIN_MS > Date.now();
      if (fresh) return cipher.decrypt(row.accessTokenEnc);
      if (!row.refreshTokenEnc)
        throw new LibraryError('auth', PROVIDER, 'the access token expired and there is no refresh token');
      const tokens = await libraryB.oauth.refresh(cipher.decrypt(row.refreshTokenEnc), callSignal);
      await repo.updateTokens(personId, PROVIDER, {
        accessTokenEnc: cipher.encrypt(tokens.accessToken),
        // Some servers rotate the refresh token; others keep it.
        refreshTokenEnc: tokens.refreshToken ? cipher.encrypt(tokens.refreshToken) : row.refreshTokenEnc,
        expiresAt: tokens.expiresIn ? new Date(Date.now() + tokens.expiresIn * 1000) : null,
      });
      return tokens.accessToken;
    },

    /** Whether the person has a connection row (cheap; tokens are not touched). */
    async isConnected(personId: string): Promise<boolean> {
      return (await repo.get(personId, PROVIDER)) !== null;
    },
  };
}

export type LibraryConnectionService = ReturnType<typeof createLibraryConnectionService>;
