import { loadSettings } from './core/platform/config/settings.js';
import { SCHEMAS } from './core/platform/config/pieces.js';

/**
 * The API process's settings (and the CLIs', which act on the same database): the pieces that
 * name `server` among their processes, validated at boot. Unknown or unused variables are ignored.
 */
export const loadServerConfig = (source?: Record<string, string | undefined>) => loadSettings(SCHEMAS.server, source);
export type ServerConfig = ReturnType<typeof loadServerConfig>;
