import { config as loadDotenv } from 'dotenv';
import { fromProjectRoot } from '../core/platform/project-root.js';

/**
 * The settings `npm start` chose for this checkout (the embedded Postgres URL, the generated
 * secrets), written to `.data/runtime.env`. The CLIs read it as a last fallback, so that
 * `npm run token` mints tokens the running stack accepts, for the database it uses. Variables
 * already in the environment (or in `.env`) always win.
 */
export const RUNTIME_ENV_FILE = fromProjectRoot('.data', 'runtime.env');

/** Fills unset variables from `.data/runtime.env` when that file exists; silent otherwise. */
export function loadRuntimeEnv(): void {
  loadDotenv({ path: RUNTIME_ENV_FILE, quiet: true, override: false });
}
