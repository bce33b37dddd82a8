import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.js';
import { StartError } from './start-error.js';

/** A Vite build the BFF serves: its sources, the file whose age says when it was built, and the npm script. */
interface BrowserBuild {
  what: string;
  script: string;
  sources: string[];
  entry: string;
}

/** What the element bundle is built from, and where the build lands (served by the BFF at /element/). */
export const ELEMENT_ENTRY = path.join(ROOT, 'dist', 'element', 'config-share.js');
const ELEMENT: BrowserBuild = {
  what: 'the <config-share> element',
  script: 'build:element',
  sources: ['element', 'server/core/wire', 'vite.config.ts'],
  entry: ELEMENT_ENTRY,
};

/** The owner console (demo/owner, served by the BFF at /demo/owner/). */
const CONSOLE_ENTRY = path.join(ROOT, 'dist', 'console', 'index.html');
const CONSOLE: BrowserBuild = {
  what: 'the owner console',
  script: 'build:console',
  sources: ['demo/owner', 'vite.config.ts'],
  entry: CONSOLE_ENTRY,
};

/** The newest modification time under `target` (a file or a folder), in ms. */
function newest(target: string): number {
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce((latest, name) => Math.max(latest, newest(path.join(target, name))), stats.mtimeMs);
}

function isStale(build: BrowserBuild): boolean {
  if (!existsSync(build.entry)) return true;
  const built = statSync(build.entry).mtimeMs;
  return build.sources
    .map((source) => path.join(ROOT, source))
    .some((source) => existsSync(source) && newest(source) > built);
}

async function ensureBuilt(build: BrowserBuild, say: (line: string) => void): Promise<void> {
  if (!isStale(build)) return;
  say(`building ${build.what} (npm run ${build.script})...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Always the production build: under Vitest (NODE_ENV=test) Vite would otherwise emit Lit's dev
  // mode and unminified code (17 KB gzip instead of 13), and the bench would measure that bundle.
  const env = { ...process.env, NODE_ENV: 'production' };
  const child = spawn(npm, ['run', '-s', build.script], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new StartError(`building ${build.what} failed (exit code ${code}):\n${errors.trim()}`);
}

/** Builds the element (`npm run build:element`) when the bundle is missing or stale. */
export const ensureElementBuilt = (say: (line: string) => void) => ensureBuilt(ELEMENT, say);

/** Builds the owner console (`npm run build:console`) when it is missing or stale. */
export const ensureConsoleBuilt = (say: (line: string) => void) => ensureBuilt(CONSOLE, say);
