import { loadSettings } from './core/platform/config/settings.js';
import { piecesFor } from './core/platform/config/pieces.js';

/**
 * The API process's settings (and the CLIs', which act on the same database): the pieces that
 * name `server` among their processes, validated at boot. Unknown or unused variables are ignored.
 */
const SERVER_PIECES = piecesFor('server');

export const loadServerConfig = (source?: Record<string, string | undefined>) => loadSettings(SERVER_PIECES, source);
export type ServerConfig = ReturnType<typeof loadServerConfig>;
