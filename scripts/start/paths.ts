import path from 'node:path';
import { PROJECT_ROOT } from '#core/platform/project-root.js';

/** The checkout `npm start` runs from, and the git-ignored folder it keeps local state in. */
export const ROOT = PROJECT_ROOT;
export const DATA_DIR = path.join(ROOT, '.data');
/** `npm run build`'s output: the processes compiled to JavaScript, run with plain node. */
export const BUILD_DIR = path.join(ROOT, 'dist');
