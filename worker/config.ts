import { loadSettings } from '#core/platform/config/settings.js';
import { SCHEMAS } from '#core/platform/config/pieces.js';

/** The worker process's settings: the pieces that name `worker` among their processes, validated at boot. */
export const loadWorkerConfig = (source?: Record<string, string | undefined>) => loadSettings(SCHEMAS.worker, source);
export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
