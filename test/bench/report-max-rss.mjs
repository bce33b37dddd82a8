import { readFileSync } from 'node:fs';

// Preloaded (--import) into a process the bench measures: writes its peak resident memory to stderr at exit.
// VmHWM, not getrusage's maxRSS: Linux carries the parent's peak over into a spawned child's maxRSS.
process.on('exit', () => {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
  process.stderr.write(`\nMAX_RSS_BYTES ${kb * 1024}\n`);
});
