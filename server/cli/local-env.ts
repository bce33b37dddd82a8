import { config as loadDotenv } from 'dotenv';
import { fromProjectRoot } from '../core/platform/project-root.js';

/**
 * The settings `npm start` chose, from `.data/runtime.env`, as the CLIs' last fallback so `npm run
 * token` mints tokens the running stack accepts. The environment and `.env` always win.
 */
export const RUNTIME_ENV_FILE = fromProjectRoot('.data', 'runtime.env');

/** Fills unset variables from `.data/runtime.env` when that file exists; silent otherwise. */
export function loadRuntimeEnv(): void {
  loadDotenv({ path: RUNTIME_ENV_FILE, quiet: true, override: false });
}
