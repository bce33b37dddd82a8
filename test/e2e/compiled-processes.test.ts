import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBuiltProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import { createTestEnv, freePort, type TestEnv } from '../helpers/test-env.js';
import { chairGlb } from '../helpers/model-fixtures.js';
import type * as CpuPoolModule from '../../server/core/platform/cpu-pool.js';
import type * as CheckModelModule from '../../server/core/services/model-checks/check-model-in-pool.js';

/**
 * The build as `npm start`, the start:* scripts and the Dockerfile run it: each process starts from dist/ with plain
 * node and answers /health, and the CPU pool loads its compiled tasks (the other tests run tsx).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let env: TestEnv;
const processes: ChildProcessHandle[] = [];

async function build() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run build failed (exit code ${code}):\n${output}`);
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
    const handle = startBuiltProcess(script, { ...env(port), LOG_LEVEL: 'info' });
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
  await build();
}, 240_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await env?.cleanup();
});

it('starts the server, the worker and the BFF from the build, each answering /health', async () => {
  // WORKER_HEALTH_PORT=0 (the test env's): the worker binds a free port itself and logs where.
  const worker = startBuiltProcess('worker/main.ts', { ...env.env, LOG_LEVEL: 'info' });
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

it("runs a CPU pool task from the build (the thread loads the task's compiled module)", async () => {
  const built = (file: string) => import(pathToFileURL(`${ROOT}dist/${file}`).href);
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
