import { spawn } from 'node:child_process';

/** One process the bench ran: its wall clock from spawn to exit, its peak RSS and what it printed on stdout. */
export interface MeasuredRun {
  ms: number;
  maxRssBytes: number;
  out: string;
}

/**
 * Runs `node --import tsx --import report-max-rss.mjs ...args`, so that a script and a CLI started this way share
 * the same start-up: its wall clock, peak RSS and output. Throws when it exits other than 0.
 */
export function measuredProcess(args: string[]): Promise<MeasuredRun> {
  return new Promise((resolve, reject) => {
    const preload = new URL('./report-max-rss.mjs', import.meta.url).href;
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', preload, ...args], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const rss = /MAX_RSS_BYTES (\d+)/.exec(err);
      if (code !== 0 || !rss) reject(new Error(`bench: ${args.join(' ')} exited ${code}: ${err.slice(-500)}`));
      else resolve({ ms: performance.now() - started, maxRssBytes: Number(rss[1]), out });
    });
  });
}
