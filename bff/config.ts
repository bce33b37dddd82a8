import { loadSettings } from '../server/core/platform/config/settings.js';
import * as piece from '../server/core/platform/config/pieces.js';

/** The BFF process's settings: the pieces it needs, validated at boot. */
export const BFF_PIECES = [
  piece.logging,
  piece.redis,
  piece.proxy,
  piece.bffListen,
  piece.bffCache,
  piece.shareReadLimit,
  piece.publicKey,
  piece.shutdown,
  piece.consoleApi,
] as const;

export const loadBffConfig = (source?: Record<string, string | undefined>) => loadSettings(BFF_PIECES, source);
export type BffConfig = ReturnType<typeof loadBffConfig>;
