import { loadSettings } from './core/platform/config/settings.js';
import * as piece from './core/platform/config/pieces.js';

/**
 * The API process's settings (and the CLIs', which act on the same database): the pieces it
 * needs, validated at boot. Unknown or unused variables are ignored.
 */
export const SERVER_PIECES = [
  piece.logging,
  piece.postgres,
  piece.redis,
  piece.storage,
  piece.shutdown,
  piece.proxy,
  piece.serverListen,
  piece.publicKey,
  piece.auth,
  piece.fileSigning,
  piece.tokenEncryption,
  piece.webhooks,
  piece.libraries,
  piece.limits,
  piece.cpu,
  piece.operatorConsole,
] as const;

export const loadServerConfig = (source?: Record<string, string | undefined>) => loadSettings(SERVER_PIECES, source);
export type ServerConfig = ReturnType<typeof loadServerConfig>;
