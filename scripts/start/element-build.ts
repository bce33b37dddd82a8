import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.js';
import { StartError } from './start-error.js';

/** What the element bundle is built from, and where the build lands (served by the BFF at /element/). */
const SOURCES = ['element', 'server/core/wire', 'vite.config.ts'];
export const ELEMENT_ENTRY = path.join(ROOT, 'dist', 'element', 'config-share.js');

/** The newest modification time under `target` (a file or a folder), in ms. */
function newest(target: string): number {
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce((latest, name) => Math.max(latest, newest(path.join(target, name))), stats.mtimeMs);
}

/** Whether the built entry is missing or older than any of its sources. */
export function elementBuildIsStale(): boolean {
  if (!existsSync(ELEMENT_ENTRY)) return true;
  const built = statSync(ELEMENT_ENTRY).mtimeMs;
  return SOURCES.map((source) => path.join(ROOT, source)).some((source) => existsSync(source) && newest(source) > built);
}

/** Builds the element (`npm run build:element`) when the bundle is missing or stale. */
export async function ensureElementBuilt(say: (line: string) => void): Promise<void> {
  if (!elementBuildIsStale()) return;
  say('building the <config-share> element (npm run build:element)...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Always the production build: under Vitest (NODE_ENV=test) Vite would otherwise emit Lit's dev
  // mode and unminified code (17 KB gzip instead of 13), and the bench would measure that bundle.
  const env = { ...process.env, NODE_ENV: 'production' };
  const child = spawn(npm, ['run', '-s', 'build:element'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new StartError(`building the element failed (exit code ${code}):\n${errors.trim()}`);
}
