import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chairDocument, glbOf } from '../../scripts/start/fixture-libraries/models.js';
import { measuredProcess, type MeasuredRun } from './measured-process.js';

/**
 * The outline an upload stores (server/core/domain/models/model-outline.ts) of a ~30 MB GLB, next to
 * `gltf-transform inspect` on the same file: wall clock and peak memory of each as its own process, both started
 * the same way (node with tsx), so the start-up they share cancels out in the comparison.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

export interface ModelOutlineBenchResult {
  fileBytes: number;
  rounds: number;
  /** Wall clock and peak RSS, median of the rounds. */
  outline: { ms: number; inProcessMs: number; maxRssBytes: number };
  inspect: { ms: number; maxRssBytes: number };
  /** The same process doing nothing: what both figures include. */
  idle: { ms: number; maxRssBytes: number };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchModelOutline(): Promise<ModelOutlineBenchResult> {
  const work = await mkdtemp(path.join(tmpdir(), 'cs-bench-outline-'));
  try {
    const glb = await glbOf(await chairDocument({ seatSubdivisions: 205, textures: 5, textureSize: 1024 }));
    const file = path.join(work, 'model.glb');
    await writeFile(file, glb);
    const cli = path.join(process.cwd(), 'node_modules', '@gltf-transform', 'cli', 'bin', 'cli.js');
    const runs = { outline: [] as MeasuredRun[], inspect: [] as MeasuredRun[], idle: [] as MeasuredRun[] };
    // One warm-up of each (tsx's cache, the file in the page cache), then alternating rounds.
    await measuredProcess(['test/bench/outline-file.ts', file]);
    await measuredProcess([cli, 'inspect', file]);
    for (let i = 0; i < ROUNDS; i++) {
      runs.outline.push(await measuredProcess(['test/bench/outline-file.ts', file]));
      runs.inspect.push(await measuredProcess([cli, 'inspect', file]));
      runs.idle.push(await measuredProcess(['test/bench/outline-file.ts']));
    }
    const summary = (list: MeasuredRun[]) => ({
      ms: median(list.map((r) => r.ms)),
      maxRssBytes: median(list.map((r) => r.maxRssBytes)),
    });
    return {
      fileBytes: glb.byteLength,
      rounds: ROUNDS,
      outline: {
        ...summary(runs.outline),
        inProcessMs: median(runs.outline.map((r) => (JSON.parse(r.out) as { ms: number }).ms)),
      },
      inspect: summary(runs.inspect),
      idle: summary(runs.idle),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export function printModelOutline(result: ModelOutlineBenchResult) {
  const mb = (n: number) => `${(n / 1_000_000).toFixed(1)} MB`;
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(`\nmodel outline (each its own process, node with tsx; median of ${result.rounds} alternating rounds)\n`);
  console.log('| measure | outline (model-outline.ts) | `gltf-transform inspect`, same file | ratio |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| outline of a ${mb(result.fileBytes)} model: wall clock | ${ms(result.outline.ms)} | ` +
      `${ms(result.inspect.ms)} | ${(result.outline.ms / result.inspect.ms).toFixed(2)}x |`,
  );
  const above = (n: number) => n - result.idle.maxRssBytes;
  console.log(
    `| peak memory (RSS) | ${mb(result.outline.maxRssBytes)} | ${mb(result.inspect.maxRssBytes)} | ` +
      `${(result.outline.maxRssBytes / result.inspect.maxRssBytes).toFixed(2)}x |`,
  );
  console.log(
    `| peak memory above the idle process (${mb(result.idle.maxRssBytes)}, ${ms(result.idle.ms)}) | ` +
      `${mb(above(result.outline.maxRssBytes))} | ${mb(above(result.inspect.maxRssBytes))} | |`,
  );
  console.log(
    `| (extra) outline timed inside its process, file read included | ${ms(result.outline.inProcessMs)} | | |`,
  );
}
