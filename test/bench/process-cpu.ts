import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Kernel clock ticks per second (the unit of /proc/<pid>/stat times); 100 on Linux almost everywhere. */
let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * CPU ms (user + system) used so far by processes whose command line matches (Linux /proc; elsewhere 0). CPU per unit
 * of work barely moves on shared cores, where throughput swings by half from one minute to the next.
 */
export function cpuMsOf(matches: (commandLine: string, pid: string) => boolean): number {
  let ticks = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ');
      if (!matches(commandLine, pid)) continue;
      ticks += ticksOf(pid);
    } catch {
      /* gone meanwhile */
    }
  }
  return (ticks * 1000) / clockTicks();
}

function ticksOf(pid: number | string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  // Fields after the command name in parentheses (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU time (user + system, in ms) used so far by the process `pid`; 0 where /proc cannot tell. */
export function cpuMsOfPid(pid: number): number {
  try {
    return (ticksOf(pid) * 1000) / clockTicks();
  } catch {
    return 0;
  }
}
