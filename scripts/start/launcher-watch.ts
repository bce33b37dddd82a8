import { readFileSync } from 'node:fs';

/**
 * Killing npm alone leaves this script holding the ports and database, so it stops everything when
 * the process that launched its parent is gone. Linux only (/proc).
 */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Calls `onGone` once when the launcher of this process's parent is no longer there. */
export function watchLauncher(onGone: () => void, intervalMs = 1000): void {
  const launcher = parentOf(process.ppid);
  if (launcher === null || launcher <= 1) return;
  const timer = setInterval(() => {
    if (parentOf(process.ppid) !== launcher) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
}
