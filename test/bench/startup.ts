import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import ts from 'typescript';
import { BUILD_DIR, ROOT } from '../../scripts/start/paths.js';
import { freePort } from '../helpers/test-env.js';
import { cpuMsOfPid } from './process-cpu.js';

/**
 * Spawn to the first 200 from `/health`, on tsx and on the build, next to a bare Fastify spawned the same way (goal:
 * 4x it on the build). Rounds take every row in turn so busy shared cores hit all alike; CPU time moves far less.
 */
type Runner = 'tsx' | 'node';
const RUNNERS: Runner[] = ['tsx', 'node'];

interface Target {
  name: string;
  /** The entry's source, relative to the project root; the build's is the same path under dist/, `.js`. */
  source: string;
  healthPath: string;
  /** The settings naming its port (and what else it needs), for a port of its own. */
  env(port: number): Record<string, string>;
}

interface Start {
  /** Spawn to the first 200, ms. */
  wallMs: number;
  /** CPU time (user + system) the process used until then, ms. */
  cpuMs: number;
}

export interface StartupRow {
  name: string;
  /** Per round, by runner. */
  samples: Record<Runner, Start[]>;
  median: Record<Runner, Start>;
}

export interface StartupResult {
  rounds: number;
  rows: StartupRow[];
  /** 1-minute load average when the measurements ended (the machine is shared). */
  load: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const BARE_SOURCE = 'test/bench/bare-fastify.ts';
const compiledEntry = (source: string) => path.join(BUILD_DIR, source.replace(/\.ts$/, '.js'));

/** Runs `npm run build`, and compiles the anchor (test code, outside the build) beside it. */
export async function build(): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run build failed (exit code ${code})`);
  const source = await readFile(path.join(ROOT, BARE_SOURCE), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  await mkdir(path.dirname(compiledEntry(BARE_SOURCE)), { recursive: true });
  await writeFile(compiledEntry(BARE_SOURCE), outputText);
}

async function answersOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Spawns `target` with `runner`, times it until its health answers 200, and stops it. */
async function timeStart(target: Target, runner: Runner, env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const args = runner === 'tsx' ? ['--import', 'tsx', target.source] : [compiledEntry(target.source)];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, ...target.env(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = `http://127.0.0.1:${port}${target.healthPath}`;
    const deadline = started + 300_000;
    while (!(await answersOk(url))) {
      if (child.exitCode !== null) throw new Error(`${target.name} (${runner}) exited during start:\n${errors}`);
      if (performance.now() > deadline) throw new Error(`${target.name} (${runner}): ${url} did not answer 200`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return { wallMs: performance.now() - started, cpuMs: cpuMsOfPid(child.pid!) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
  }
}

export async function benchStartup(options: { env: Record<string, string>; rounds: number }): Promise<StartupResult> {
  await build();
  const env = { ...options.env, LOG_LEVEL: 'warn' };
  // The BFF's /health asks its upstream: a server (on the build) answers it throughout.
  const upstreamPort = await freePort();
  const upstream = spawn(process.execPath, [compiledEntry('server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(upstreamPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
  try {
    while (!(await answersOk(`${upstreamUrl}/health`))) {
      if (upstream.exitCode !== null) throw new Error('the upstream server exited during start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const targets: Target[] = [
      {
        name: 'bare Fastify (anchor)',
        source: BARE_SOURCE,
        healthPath: '/ready',
        env: (port) => ({ BARE_PORT: String(port), BARE_ROUTES: '{}' }),
      },
      {
        name: 'server',
        source: 'server/main.ts',
        healthPath: '/health',
        env: (port) => ({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }),
      },
      {
        name: 'worker',
        source: 'worker/main.ts',
        healthPath: '/health',
        env: (port) => ({ WORKER_HEALTH_PORT: String(port) }),
      },
      {
        name: 'BFF',
        source: 'bff/main.ts',
        healthPath: '/health',
        env: (port) => ({ BFF_PORT: String(port), BFF_UPSTREAM_URL: upstreamUrl }),
      },
    ];
    const rows: StartupRow[] = targets.map((t) => ({
      name: t.name,
      samples: { tsx: [], node: [] },
      median: { tsx: { wallMs: 0, cpuMs: 0 }, node: { wallMs: 0, cpuMs: 0 } },
    }));
    for (let round = 0; round < options.rounds; round++) {
      // Every other round the other runner goes first.
      const runners = round % 2 === 0 ? RUNNERS : [...RUNNERS].reverse();
      for (const [index, target] of targets.entries())
        for (const runner of runners) rows[index].samples[runner].push(await timeStart(target, runner, env));
    }
    for (const row of rows)
      for (const runner of RUNNERS) {
        const samples = row.samples[runner];
        row.median[runner] = {
          wallMs: median(samples.map((s) => s.wallMs)),
          cpuMs: median(samples.map((s) => s.cpuMs)),
        };
      }
    return { rounds: options.rounds, rows, load: loadavg()[0] };
  } finally {
    if (upstream.exitCode === null) {
      upstream.kill('SIGTERM');
      await new Promise((r) => upstream.once('exit', r));
    }
  }
}

export function printStartup(result: StartupResult) {
  const ms = (value: number) => `${Math.round(value)} ms`;
  const [bare] = result.rows;
  for (const measure of ['wallMs', 'cpuMs'] as const) {
    console.log(
      measure === 'wallMs'
        ? `\nstart-up: spawn to the first 200 from /health, database migrated (median of ${result.rounds} rounds; ` +
            `load average ${result.load.toFixed(2)} at the end)\n`
        : '\nCPU time (user + system) each process used until then (steadier than wall time on shared cores)\n',
    );
    console.log('| process | tsx: node --import tsx | / bare | build: node dist/ | / bare (goal 4x) | build / tsx |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const { name, median } of result.rows) {
      const [tsx, node] = [median.tsx[measure], median.node[measure]];
      const [bareTsx, bareNode] = [bare.median.tsx[measure], bare.median.node[measure]];
      console.log(
        `| ${name} | ${ms(tsx)} | ${(tsx / bareTsx).toFixed(2)}x | ${ms(node)} | ${(node / bareNode).toFixed(2)}x | ` +
          `${(node / tsx).toFixed(2)}x |`,
      );
    }
  }
  const list = (samples: Start[]) => samples.map((s) => `${Math.round(s.wallMs)}/${Math.round(s.cpuMs)}`).join(', ');
  console.log('\nsamples, wall/CPU ms (tsx; build):');
  for (const { name, samples } of result.rows) console.log(`- ${name}: ${list(samples.tsx)}; ${list(samples.node)}`);
}
