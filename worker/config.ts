import { loadSettings } from '../server/core/platform/config/settings.js';
import * as piece from '../server/core/platform/config/pieces.js';

/** The worker process's settings: the pieces it needs, validated at boot. */
export const WORKER_PIECES = [
  piece.logging,
  piece.postgres,
  piece.redis,
  piece.storage,
  piece.shutdown,
  piece.mail,
  piece.webhooks,
  piece.libraries,
  piece.tokenEncryption,
  piece.worker,
  piece.cpu,
] as const;

export const loadWorkerConfig = (source?: Record<string, string | undefined>) => loadSettings(WORKER_PIECES, source);
export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
