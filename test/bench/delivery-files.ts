import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { productModelGlb } from '../helpers/product-model.js';
import { freePort } from '../helpers/test-env.js';
import { measureElement, type ElementFigures } from './element-first-frame.js';
import { measuredProcess, type MeasuredRun } from './measured-process.js';

/**
 * Delivery files (docs/delivery-files.md) of the product model (test/helpers/product-model.ts: ~43 MB, four 4096 px
 * PNG textures): their size next to the original's and to `gltf-transform optimize` with the same steps; the job's
 * time and peak memory next to that command's, each its own process; and the first frame of the element showing the
 * delivery file through the BFF next to model-viewer showing the original, with the bytes each page downloaded.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

/**
 * The CLI's optimize limited to the delivery file's steps: dedup, weld, resample, prune, textures as WebP at most
 * 2048 px, meshopt; no instancing, palettes, flattening, joins, simplification or sparse accessors.
 */
const CLI_OPTIMIZE = (
  '--compress meshopt --texture-compress webp --texture-size 2048 --instance false --flatten false --join false ' +
  '--simplify false --palette false --sparse false'
).split(' ');

export interface DeliveryFilesBenchResult {
  rounds: number;
  bytes: { original: number; delivery: number; cli: number };
  /** Wall clock and peak RSS of each process, median of the rounds. */
  job: { ms: number; inProcessMs: number; maxRssBytes: number };
  cli: { ms: number; maxRssBytes: number };
  /** The same process doing nothing: what both figures include. */
  idle: { ms: number; maxRssBytes: number };
  /** Row 3, or why it could not be measured (the other rows still are). */
  firstFrame:
    | (ElementFigures & {
        /** POST /assets answered to GET /assets/:id saying the delivery file is ready, and its size there. */
        uploadToReadyMs: number;
        storedDeliveryBytes: number;
      })
    | { error: string };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Rows 1 and 2: sizes, and time and memory of each as its own process, started the same way (node with tsx). */
async function fileRows(work: string, original: Uint8Array) {
  const file = path.join(work, 'product.glb');
  await writeFile(file, original);
  const deliveryOut = path.join(work, 'delivery.glb');
  const cliOut = path.join(work, 'cli.glb');
  const cli = path.join(process.cwd(), 'node_modules', '@gltf-transform', 'cli', 'bin', 'cli.js');
  const job = () => measuredProcess(['test/bench/delivery-file.ts', file, deliveryOut]);
  const optimize = () => measuredProcess([cli, 'optimize', file, cliOut, ...CLI_OPTIMIZE]);
  const runs = { job: [] as MeasuredRun[], cli: [] as MeasuredRun[], idle: [] as MeasuredRun[] };
  // One warm-up of each (tsx's cache, the file in the page cache), then alternating rounds.
  const first = JSON.parse((await job()).out) as { kind: string; reason?: string };
  if (first.kind !== 'ready') throw new Error(`bench: the product model's delivery file was skipped: ${first.reason}`);
  await optimize();
  for (let i = 0; i < ROUNDS; i++) {
    runs.job.push(await job());
    runs.cli.push(await optimize());
    runs.idle.push(await measuredProcess(['test/bench/delivery-file.ts']));
  }
  const summary = (list: MeasuredRun[]) => ({
    ms: median(list.map((r) => r.ms)),
    maxRssBytes: median(list.map((r) => r.maxRssBytes)),
  });
  return {
    bytes: {
      original: original.byteLength,
      delivery: (await stat(deliveryOut)).size,
      cli: (await stat(cliOut)).size,
    },
    job: { ...summary(runs.job), inProcessMs: median(runs.job.map((r) => (JSON.parse(r.out) as { ms: number }).ms)) },
    cli: summary(runs.cli),
    idle: summary(runs.idle),
  };
}

/** A worker of its own next to the bench's server, so the upload's delivery job runs; stopped by the caller. */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  const worker = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    env: { ...process.env, ...env, WORKER_HEALTH_PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await until(
    async () => {
      if (worker.exitCode !== null) throw new Error('bench: the worker exited during start');
      return (await fetch(`http://127.0.0.1:${port}/health`).catch(() => null))?.ok || undefined;
    },
    'the worker',
    90_000,
  );
  return worker;
}

export async function benchDeliveryFiles(options: {
  env: Record<string, string>;
  apiUrl: string;
  bffUrl: string;
  ownerHeaders: Record<string, string>;
}): Promise<DeliveryFilesBenchResult> {
  const { apiUrl, bffUrl, ownerHeaders } = options;
  const work = await mkdtemp(path.join(tmpdir(), 'cs-bench-delivery-'));
  let worker: ChildProcess | undefined;
  try {
    const original = await productModelGlb();
    const files = await fileRows(work, original);

    // Row 3: the upload goes through the pipeline; the element's page is opened once the delivery file is ready.
    worker = await startWorker(options.env);
    let uploadToReadyMs = 0;
    let storedDeliveryBytes = 0;
    const ready = async (assetId: string) => {
      const started = performance.now();
      const delivery = await until(
        async () => {
          const answer = await fetch(`${apiUrl}/assets/${assetId}`, {
            headers: { authorization: ownerHeaders.authorization },
          });
          if (!answer.ok) throw new Error(`bench: GET /assets/:id answered ${answer.status}`);
          const { asset } = (await answer.json()) as {
            asset: { delivery: { status: string; sizeBytes: number | null; reason: string | null } };
          };
          const { status, sizeBytes, reason } = asset.delivery;
          if (status !== 'pending' && status !== 'ready')
            throw new Error(`bench: the product model's delivery file is ${status}: ${reason}`);
          return status === 'ready' ? { sizeBytes: sizeBytes ?? 0 } : undefined;
        },
        'the delivery file',
        5 * 60_000,
      );
      uploadToReadyMs = performance.now() - started;
      storedDeliveryBytes = delivery.sizeBytes;
    };
    const firstFrame = await measureElement({
      apiUrl,
      bffUrl,
      ownerHeaders,
      model: { glb: original, fileName: 'armchair.glb', ready },
    }).then(
      (figures) => ({ ...figures, uploadToReadyMs, storedDeliveryBytes }),
      (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
    );
    return { rounds: ROUNDS, ...files, firstFrame };
  } finally {
    if (worker && worker.exitCode === null) {
      const stopped = worker;
      stopped.kill('SIGTERM');
      await new Promise((r) => stopped.once('exit', r));
    }
    await rm(work, { recursive: true, force: true });
  }
}

/** Prints the rows; false when the first frame could not be measured (the bench then fails). */
export function printDeliveryFiles(result: DeliveryFilesBenchResult): boolean {
  const mb = (n: number) => `${(n / 1_000_000).toFixed(2)} MB`;
  const rss = (n: number) => `${Math.round(n / 1_000_000)} MB`;
  const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const { bytes, job, cli, idle, firstFrame } = result;
  const cliName = '`gltf-transform optimize`, same steps';
  console.log(
    `\ndelivery files of the product model (${mb(bytes.original)} GLB, four 4096 px PNG textures); the job and ` +
      `the command each its own process (node with tsx), median of ${result.rounds} alternating rounds` +
      ('error' in firstFrame
        ? ''
        : `; first frames: median of ${firstFrame.rounds} alternating page loads, cold cache`) +
      '\n',
  );
  console.log('| delivery files | figure | anchor | ratio |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| size of the delivery file (goal ≤ 35% of the original) | ${mb(bytes.delivery)} | the original: ` +
      `${mb(bytes.original)} | ${((bytes.delivery / bytes.original) * 100).toFixed(1)}% |`,
  );
  console.log(
    `| size of the delivery file | ${mb(bytes.delivery)} | ${cliName}: ${mb(bytes.cli)} | ` +
      `${ratio(bytes.delivery, bytes.cli)} |`,
  );
  console.log(
    `| the job's wall clock, file to file (goal ≤ 1.5x) | ${ms(job.ms)} | ${cliName}: ${ms(cli.ms)} | ` +
      `${ratio(job.ms, cli.ms)} |`,
  );
  console.log(
    `| the job's peak memory (RSS) | ${rss(job.maxRssBytes)} | ${cliName}: ${rss(cli.maxRssBytes)} | ` +
      `${ratio(job.maxRssBytes, cli.maxRssBytes)} |`,
  );
  console.log(
    `| peak memory above the idle process (${rss(idle.maxRssBytes)}, ${ms(idle.ms)}) | ` +
      `${rss(job.maxRssBytes - idle.maxRssBytes)} | ${rss(cli.maxRssBytes - idle.maxRssBytes)} | ` +
      `${ratio(job.maxRssBytes - idle.maxRssBytes, cli.maxRssBytes - idle.maxRssBytes)} |`,
  );
  if ('error' in firstFrame) {
    console.log(`| first frame: the element, delivery file through the BFF | not measured | | |`);
    console.log(`\nthe job timed inside its process, file read and validation included: ${ms(job.inProcessMs)}`);
    console.error(`\ndelivery files, first frame: ${firstFrame.error}`);
    return false;
  }
  console.log(
    `| first frame: the element, delivery file through the BFF (goal ≤ 0.5x) | ` +
      `${ms(firstFrame.elementFirstFrameMs)} | ` +
      `model-viewer, the original: ${ms(firstFrame.modelViewerFirstFrameMs)} | ` +
      `${ratio(firstFrame.elementFirstFrameMs, firstFrame.modelViewerFirstFrameMs)} |`,
  );
  console.log(
    `| bytes the page downloaded by its first frame | ${mb(firstFrame.elementBytes)} | model-viewer: ` +
      `${mb(firstFrame.modelViewerBytes)} | ${ratio(firstFrame.elementBytes, firstFrame.modelViewerBytes)} |`,
  );
  console.log(
    `\nthe job timed inside its process, file read and validation included: ${ms(job.inProcessMs)}; upload answered ` +
      `to delivery ready in the worker (server, worker and bench on the same cores): ` +
      `${ms(firstFrame.uploadToReadyMs)}, stored delivery file ${mb(firstFrame.storedDeliveryBytes)}`,
  );
  console.log(
    `first frames, ms: element ${firstFrame.elementSamples.map(Math.round).join(', ')}; model-viewer ` +
      `${firstFrame.modelViewerSamples.map(Math.round).join(', ')}`,
  );
  return true;
}
