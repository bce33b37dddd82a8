import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * The checkout's (or image's) root folder. Compiled modules run from `dist/`, one folder deeper
 * than their sources, so files that are not compiled (migrations, pages, `.data`) are found from here.
 */
export const PROJECT_ROOT = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../../../' : '../../../../', import.meta.url),
);

/** A path inside the project root. */
export const fromProjectRoot = (...parts: string[]) => path.join(PROJECT_ROOT, ...parts);
