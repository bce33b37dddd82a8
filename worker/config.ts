import { loadSettings } from '#core/platform/config/settings.js';
import { piecesFor } from '#core/platform/config/pieces.js';

/** The worker process's settings: the pieces that name `worker` among their processes, validated at boot. */
const WORKER_PIECES = piecesFor('worker');

export const loadWorkerConfig = (source?: Record<string, string | undefined>) => loadSettings(WORKER_PIECES, source);
export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
