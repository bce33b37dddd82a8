import { loadSettings } from '#core/platform/config/settings.js';
import { SCHEMAS } from '#core/platform/config/pieces.js';

/** The BFF process's settings: the pieces that name `bff` among their processes, validated at boot. */
export const loadBffConfig = (source?: Record<string, string | undefined>) => loadSettings(SCHEMAS.bff, source);
export type BffConfig = ReturnType<typeof loadBffConfig>;
