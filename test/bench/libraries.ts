import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import yauzl from 'yauzl';
import { startFixtureLibraries } from '../../scripts/start/fixture-libraries/server.js';
import { freePort } from '../helpers/test-env.js';

/**
 * Search latency against libraries answering after 50, 150 and 400 ms (goal: slowest + 20 ms); a ~20 MB glTF zip
 * import next to `gltf-transform copy` (goal: 1.5x), with the worker's memory growth (goal: 4x the unpacked model).
 */
const BENCH_UID = 'be0c2b3c4d5e6f708192a3b4c5d6e7f9';
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 30);
const IMPORTS = Number(process.env.BENCH_IMPORTS ?? 3);

export interface LibraryBenchResult {
  searchP50: number;
  searchP95: number;
  searchGoal: number;
  importMs: number;
  /** `gltf-transform copy` as a command, wall clock. */
  copyMs: number;
  /** glTF-Transform's read+write timed inside its process (gltf-copy.ts). */
  inProcessMs: number;
  importRuns: number[];
  copyRuns: number[];
  /** 1-minute load average when the searches and when the imports ended (the machine is shared). */
  load: { search: number; imports: number };
  ratio: number;
  archiveBytes: number;
  unpackedBytes: number;
  memoryGrowthBytes: number;
  memoryRatio: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

async function until<T>(probe: () => Promise<T | null>, what: string, timeoutMs = 120_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

async function unzipTo(zip: Uint8Array, dir: string): Promise<number> {
  const file = await yauzl.fromBufferPromise(Buffer.from(zip), { lazyEntries: true });
  let total = 0;
  for await (const entry of file.eachEntry()) {
    if (entry.fileName.endsWith('/')) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    const target = path.join(dir, entry.fileName);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, Buffer.concat(chunks));
    total += entry.uncompressedSize;
  }
  file.close();
  return total;
}

export async function benchLibraries(options: {
  env: Record<string, string>;
  token: string;
}): Promise<LibraryBenchResult> {
  const libs = await startFixtureLibraries({
    behaviour: { library_a: { delayMs: 50 }, library_b: { delayMs: 150 }, library_c: { delayMs: 400 } },
  });
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    ...options.env,
    ...libs.env,
    PORT: String(port),
    PUBLIC_BASE_URL: api,
    RATE_LIMIT_SEARCH: '100000/1m',
    RATE_LIMIT_IMPORT: '100000/10m',
    WORKER_HEALTH_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };
  const redis = new Redis(options.env.REDIS_URL);
  let server: ChildProcess | null = null;
  let worker: ChildProcess | null = null;
  const work = await mkdtemp(path.join(tmpdir(), 'cs-bench-libs-'));
  try {
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await until(async () => ((await fetch(`${api}/health`)).ok ? true : null), 'the libraries server');

    // Search: every answer fresh from the libraries (the cache would hide their latency).
    const clearCache = async () => {
      const keys = await redis.keys(`${options.env.QUEUE_PREFIX}:lib:search:*`);
      if (keys.length) await redis.del(...keys);
    };
    await fetch(`${api}/external-assets/search?q=chair`, { headers });
    const latencies: number[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      await clearCache();
      const started = performance.now();
      const response = await fetch(`${api}/external-assets/search?q=chair`, { headers });
      await response.json();
      latencies.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`bench: search answered ${response.status}`);
    }
    const searchLoad = loadavg()[0];

    // Import: the person's library_b account, then the ~20 MB gltf zip, several times.
    const { url } = await (
      await fetch(`${api}/external-providers/library_b/connect`, { method: 'POST', headers })
    ).json();
    const callback = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    await fetch(callback, { redirect: 'manual' });
    const detail = await (await fetch(`${libs.origin}/sketchfab/v3/models/${BENCH_UID}`)).json();
    const download = await (await fetch(`${libs.origin}/dl/library_b/${BENCH_UID}/scene.zip`)).arrayBuffer();
    const archive = new Uint8Array(download);
    const unpackedBytes = await unzipTo(archive, path.join(work, 'model'));
    void detail;

    // BENCH_WORKER_LOG=file: the worker's log (info: each import's stage timings) goes there.
    const workerLog = process.env.BENCH_WORKER_LOG ? openSync(process.env.BENCH_WORKER_LOG, 'a') : 'ignore';
    worker = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      env: { ...env, ...(workerLog === 'ignore' ? {} : { LOG_LEVEL: 'info' }) },
      stdio: ['ignore', workerLog, 'inherit'],
    });
    const runImport = async () => {
      const baseline = await rssOf(worker!.pid!);
      let peak = baseline;
      const sampler = setInterval(
        () =>
          void rssOf(worker!.pid!).then(
            (rss) => (peak = Math.max(peak, rss)),
            () => {},
          ),
        20,
      );
      const started = performance.now();
      const answer = await (
        await fetch(`${api}/external-assets/imports`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ provider: 'library_b', providerAssetId: BENCH_UID }),
        })
      ).json();
      if (!answer.job) throw new Error(`bench: import not accepted: ${JSON.stringify(answer)}`);
      const job = await until(async () => {
        const j = (await (await fetch(`${api}/external-assets/imports/${answer.job.id}`, { headers })).json()).job;
        return j.status === 'completed' || j.status === 'failed' ? j : null;
      }, 'the import');
      const elapsed = performance.now() - started;
      clearInterval(sampler);
      if (job.status !== 'completed') throw new Error(`bench: the import failed: ${JSON.stringify(job.error)}`);
      await fetch(`${api}/assets/${job.assetId}`, {
        method: 'DELETE',
        headers: { authorization: headers.authorization },
      });
      return { elapsed, growth: peak - baseline };
    };
    /** Wall clock of a command from spawn to exit, and what it printed. */
    const timed = (command: string, args: string[]) =>
      new Promise<{ ms: number; out: string }>((resolve, reject) => {
        const started = performance.now();
        const child = spawn(command, args, { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0
            ? resolve({ ms: performance.now() - started, out })
            : reject(new Error(`${command} exited ${code}`)),
        );
      });
    const gltf = path.join(work, 'model', 'scene.gltf');
    const glb = path.join(work, 'out.glb');
    const cli = path.join(process.cwd(), 'node_modules', '.bin', 'gltf-transform');

    // The first import and the first copy warm up (the import waits in the queue until the worker runs): not counted.
    await runImport();
    await timed(cli, ['copy', gltf, glb]);
    const times: number[] = [];
    const copies: number[] = [];
    const inProcess: number[] = [];
    let growth = 0;
    for (let i = 0; i < IMPORTS; i++) {
      const run = await runImport();
      times.push(run.elapsed);
      growth = Math.max(growth, run.growth);
      copies.push((await timed(cli, ['copy', gltf, glb])).ms);
      inProcess.push(
        Number((await timed(process.execPath, ['--import', 'tsx', 'test/bench/gltf-copy.ts', gltf, glb])).out),
      );
    }
    const importMs = median(times);
    const copyMs = median(copies);
    const inProcessMs = median(inProcess);
    return {
      searchP50: median(latencies),
      searchP95: percentile(latencies, 0.95),
      searchGoal: 420,
      importMs,
      copyMs,
      inProcessMs,
      importRuns: times,
      load: { search: searchLoad, imports: loadavg()[0] },
      copyRuns: copies,
      ratio: importMs / copyMs,
      archiveBytes: archive.length,
      unpackedBytes,
      memoryGrowthBytes: growth,
      memoryRatio: growth / unpackedBytes,
    };
  } finally {
    worker?.kill('SIGTERM');
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    redis.disconnect();
    await libs.close();
    await rm(work, { recursive: true, force: true });
  }
}

export function printLibraries(result: LibraryBenchResult) {
  const mb = (n: number) => `${(n / 1_000_000).toFixed(1)} MB`;
  console.log('\nonline libraries\n');
  console.log('| measure | value | goal |');
  console.log('|---|---:|---:|');
  console.log(
    `| search, libraries at 50/150/400 ms: p50 | ${Math.round(result.searchP50)} ms | ≤ ${result.searchGoal} ms |`,
  );
  console.log(`| search p95 | ${Math.round(result.searchP95)} ms | |`);
  console.log(
    `| load average (1 min) after the searches / after the imports | ${result.load.search.toFixed(2)} / ` +
      `${result.load.imports.toFixed(2)} | |`,
  );
  const runs = (values: number[]) => values.map((v) => Math.round(v)).join(', ');
  console.log(
    `| import of a ${mb(result.archiveBytes)} glTF zip (${mb(result.unpackedBytes)} unpacked), POST to completed ` +
      `(runs: ${runs(result.importRuns)}) | ${Math.round(result.importMs)} ms | |`,
  );
  console.log(
    `| \`gltf-transform copy\` of the same files, as a command, same rounds (runs: ${runs(result.copyRuns)}) | ` +
      `${Math.round(result.copyMs)} ms | |`,
  );
  console.log(`| import / gltf-transform copy | ${result.ratio.toFixed(2)}x | ≤ 1.5x |`);
  console.log(
    `| (extra) glTF-Transform read+write timed inside its process (gltf-copy.ts) | ` +
      `${Math.round(result.inProcessMs)} ms | |`,
  );
  console.log(
    `| worker memory growth during the import | ${mb(result.memoryGrowthBytes)} (${result.memoryRatio.toFixed(2)}x ` +
      `the unpacked model) | ≤ 4x |`,
  );
}
