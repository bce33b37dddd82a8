import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The checkout `npm start` runs from, and the git-ignored folder it keeps local state in. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DATA_DIR = path.join(ROOT, '.data');
export const TSX_BIN = path.join(ROOT, 'node_modules', '.bin', 'tsx');
