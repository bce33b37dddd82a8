import { spawn } from 'node:child_process';
import { cp, mkdtemp, realpath, rm, stat, symlink, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBuiltProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import { createTestEnv, freePort, type TestEnv } from '../helpers/test-env.js';
import { chairGlb } from '../helpers/model-fixtures.js';
import type * as CpuPoolModule from '#core/platform/cpu-pool.js';
import type * as CheckModelModule from '#core/services/model-checks/check-model-in-pool.js';

/**
 * The build as `npm start`, the start:* scripts and the Dockerfile run it: `npm run build` in a copy of the project
 * without the browser bundles (as the image's build starts), then each process from that copy's dist/ with plain node.
 * Each answers /health, the BFF serves the element and the console, and the CPU pool loads its compiled tasks.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Left out of the copy: what .dockerignore leaves out, except the compiled processes (tsc reuses them). */
const NOT_COPIED = new Set(['node_modules', '.git', '.data', '.env', 'coverage', 'dist/element', 'dist/console']);
let project: string;
let env: TestEnv;
const processes: ChildProcessHandle[] = [];

async function copyProject(): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), 'cs-build-'));
  await cp(ROOT, copy, {
    recursive: true,
    preserveTimestamps: true,
    filter: (source) => !NOT_COPIED.has(path.relative(ROOT, source).split(path.sep).join('/')),
  });
  await symlink(await realpath(path.join(ROOT, 'node_modules')), path.join(copy, 'node_modules'));
  return copy;
}

/** Runs `npm run build` in `cwd`; resolves with what it printed. */
async function build(cwd: string) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['run', '-s', 'build'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run build failed (exit code ${code}):\n${output}`);
  return output;
}

/** Waits until `url` answers 200; fails with the process's output when it exits first or takes too long. */
async function untilHealthy(url: string, handle: ChildProcessHandle, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(url).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    if (handle.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${url} did not answer 200 (last: ${status}):\n${handle.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts a built entry point on a port picked free and waits until the child itself logs that it listens there:
 * freePort's probe closes before the child binds, so another process (or a sibling's port pick) may take it first.
 */
async function startOnFreePort(script: string, env: (port: number) => Record<string, string>) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const handle = startBuiltProcess(script, { ...env(port), LOG_LEVEL: 'info' }, project);
    processes.push(handle);
    try {
      await handle.waitForOutput(new RegExp(`listening at http://127\\.0\\.0\\.1:${port}"`), 90_000);
      return { handle, origin: `http://127.0.0.1:${port}` };
    } catch (error) {
      if (attempt < 3 && /already in use/.test(handle.output())) continue;
      throw error;
    }
  }
}

beforeAll(async () => {
  env = await createTestEnv({ LOG_LEVEL: 'warn' });
  project = await copyProject();
  await build(project);
}, 240_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await env?.cleanup();
  if (project) await rm(project, { recursive: true, force: true });
});

it('starts the server, the worker and the BFF from the build, each answering /health', async () => {
  // WORKER_HEALTH_PORT=0 (the test env's): the worker binds a free port itself and logs where.
  const worker = startBuiltProcess('worker/main.ts', { ...env.env, LOG_LEVEL: 'info' }, project);
  processes.push(worker);
  const server = await startOnFreePort('server/main.ts', (port) => ({
    ...env.env,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  }));
  await untilHealthy(`${server.origin}/health`, server.handle);
  const bff = await startOnFreePort('bff/main.ts', (port) => ({
    ...env.env,
    BFF_PORT: String(port),
    BFF_UPSTREAM_URL: server.origin,
  }));
  await worker.waitForOutput(/"msg":"worker ready"/, 90_000);
  const workerHealth = /worker health on (http:\/\/[^"\s]+\/health)/.exec(worker.output())![1]!;
  await untilHealthy(workerHealth, worker);
  await untilHealthy(`${bff.origin}/health`, bff.handle);
  const running = [server.handle, worker, bff.handle];
  expect(
    running.map((p) => p.child.exitCode),
    running.map((p) => p.output()).join('\n'),
  ).toEqual([null, null, null]);
}, 240_000);

it('serves the element and the owner console that npm run build made, from the BFF on the build', async () => {
  // Static files only: the upstream is never called, so none needs to run.
  const bff = await startOnFreePort('bff/main.ts', (port) => ({ ...env.env, BFF_PORT: String(port) }));
  const read = async (url: string) => {
    const response = await fetch(`${bff.origin}${url}`);
    return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
  };
  const element = await read('/element/config-share.js');
  expect(element.status).toBe(200);
  expect(element.body).toContain('config-share');
  const elementChunk = /assets\/[\w.-]+\.js/.exec(element.body)![0];
  expect(await read(`/element/${elementChunk}`)).toMatchObject({
    status: 200,
    type: expect.stringMatching(/javascript/),
  });

  const consolePage = await read('/demo/owner/');
  expect(consolePage.status).toBe(200);
  expect(consolePage.body).toContain('<owner-console>');
  const consoleChunk = /assets\/index-[\w-]+\.js/.exec(consolePage.body)![0];
  expect((await read(`/demo/owner/${consoleChunk}`)).status).toBe(200);
}, 120_000);

it("runs a CPU pool task from the build (the thread loads the task's compiled module)", async () => {
  const built = (file: string) => import(pathToFileURL(path.join(project, 'dist', file)).href);
  const { createCpuPool } = (await built('server/core/platform/cpu-pool.js')) as typeof CpuPoolModule;
  const { checkModelFileInPool } = (await built(
    'server/core/services/model-checks/check-model-in-pool.js',
  )) as typeof CheckModelModule;
  const pool = createCpuPool({ threads: 1 });
  try {
    const model = await checkModelFileInPool(pool, await chairGlb(), 'chair.glb');
    expect(model.sourceFormat).toBe('glb');
    expect(model.glb.byteLength).toBeGreaterThan(0);
  } finally {
    await pool.close();
  }
}, 60_000);

it('builds the element and the console again only when their sources changed', async () => {
  const bundles = ['dist/element/config-share.js', 'dist/console/index.html'].map((file) => path.join(project, file));
  const builtAt = () => Promise.all(bundles.map(async (file) => (await stat(file)).mtimeMs));
  const before = await builtAt();
  expect(await build(project)).not.toContain('building');
  expect(await builtAt()).toEqual(before);

  // The wire types, which both bundles import.
  const now = new Date();
  await utimes(path.join(project, 'server/core/wire/configurator/index.ts'), now, now);
  const output = await build(project);
  expect(output).toContain('building the <config-share> element');
  expect(output).toContain('building the owner console');
}, 120_000);
