import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './paths.js';

/** A Vite build the BFF serves: its sources, the file whose age says when it was built, and Vite's arguments. */
interface BrowserBuild {
  what: string;
  viteArgs: string[];
  sources: string[];
  entry: string;
}

/** The dependencies' versions (package-lock.json) and import map (package.json) shape both bundles. */
const SHARED_SOURCES = ['server/core/wire', 'vite.config.ts', 'package.json', 'package-lock.json'];

/** What the element bundle is built from, and where the build lands (served by the BFF at /element/). */
export const ELEMENT_ENTRY = path.join(ROOT, 'dist', 'element', 'config-share.js');
const ELEMENT: BrowserBuild = {
  what: 'the <config-share> element',
  viteArgs: ['build'],
  sources: ['element', ...SHARED_SOURCES],
  entry: ELEMENT_ENTRY,
};

/** The owner console (demo/owner, served by the BFF at /demo/owner/). */
const CONSOLE: BrowserBuild = {
  what: 'the owner console',
  viteArgs: ['build', '--mode', 'console'],
  sources: ['demo/owner', ...SHARED_SOURCES],
  entry: path.join(ROOT, 'dist', 'console', 'index.html'),
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

/** Vite's command line, run with this node (no npm or npx wrapper to find on PATH). */
function viteBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('vite/package.json');
  const { bin } = require(manifest) as { bin: { vite: string } };
  return path.join(path.dirname(manifest), bin.vite);
}

async function ensureBuilt(build: BrowserBuild, say: (line: string) => void): Promise<void> {
  if (!isStale(build)) return;
  say(`building ${build.what} (vite ${build.viteArgs.join(' ')})...`);
  // Always the production build: under Vitest (NODE_ENV=test) Vite would otherwise emit Lit's dev
  // mode and unminified code (17 KB gzip instead of 13), and the bench would measure that bundle.
  const env = { ...process.env, NODE_ENV: 'production' };
  const child = spawn(process.execPath, [viteBin(), ...build.viteArgs], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`building ${build.what} failed (exit code ${code}):\n${errors.trim()}`);
}

/** Builds the element (`vite build`) when the bundle is missing or older than its sources. */
export const ensureElementBuilt = (say: (line: string) => void) => ensureBuilt(ELEMENT, say);

/** Builds the owner console (`vite build --mode console`) when it is missing or older than its sources. */
export const ensureConsoleBuilt = (say: (line: string) => void) => ensureBuilt(CONSOLE, say);
