import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildProcessHandle {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves when the output matches `pattern`; rejects on timeout or if the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<ProcessExit>;
  /** SIGKILL if it still runs, and wait for it. */
  stop(): Promise<ProcessExit>;
}

/**
 * Runs a TypeScript entry point as its own process with `node --import tsx`, not the tsx or npx wrapper, so a signal
 * reaches the program, not a wrapper that outlives it.
 */
export function startTsProcess(script: string, env: Record<string, string>): ChildProcessHandle {
  return startNodeProcess(script, ['--import', 'tsx', script], env);
}

/**
 * Runs an entry point's build (`dist/<script>.js`, from `npm run build`) with plain node, as start:* does; `root` is
 * the project it was built in (default: this checkout).
 */
export function startBuiltProcess(script: string, env: Record<string, string>, root = ROOT): ChildProcessHandle {
  const built = `dist/${script.replace(/\.ts$/, '.js')}`;
  return startNodeProcess(built, [built], env, root);
}

function startNodeProcess(script: string, args: string[], env: Record<string, string>, cwd = ROOT): ChildProcessHandle {
  const child = spawn(process.execPath, args, {
    cwd,
    // Only what the program needs: the test runner's own variables stay out.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    listeners.forEach((l) => l());
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<ProcessExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let done = false;
  void exited.then(() => {
    done = true;
    listeners.forEach((l) => l());
  });

  return {
    child,
    output: () => output,
    waitForOutput(pattern, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) finish(null);
          else if (done) finish(new Error(`${script} exited before printing ${pattern}:\n${output}`));
        };
        const timer = setTimeout(
          () => finish(new Error(`${script} did not print ${pattern} in ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        );
        const finish = (error: Error | null) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        listeners.add(check);
        check();
      });
    },
    exited,
    async stop() {
      if (!done) child.kill('SIGKILL');
      return exited;
    },
  };
}
