import { loadSettings } from '#core/platform/config/settings.js';
import { piecesFor } from '#core/platform/config/pieces.js';

/** The BFF process's settings: the pieces that name `bff` among their processes, validated at boot. */
const BFF_PIECES = piecesFor('bff');

export const loadBffConfig = (source?: Record<string, string | undefined>) => loadSettings(BFF_PIECES, source);
export type BffConfig = ReturnType<typeof loadBffConfig>;
