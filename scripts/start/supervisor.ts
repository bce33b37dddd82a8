import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import pinoPretty from 'pino-pretty';
import path from 'node:path';
import { BUILD_DIR, ROOT } from './paths.js';

/**
 * Runs the server, worker and BFF as children of `npm start`, with all JSON log lines in one file.
 * Only warnings and errors reach the terminal, so the launcher's summary stays in view.
 */
export interface ManagedChild {
  name: string;
  process: ChildProcess;
}

const COLORS = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m'];
/** pino's level number of `warn`: from here up a line is worth interrupting the person for. */
const WARN = 40;

/** A pino line's level; null for a line that is not a pino JSON line. */
function levelOf(line: string): number | null {
  if (!line.startsWith('{')) return null;
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return typeof level === 'number' ? level : null;
  } catch {
    return null;
  }
}
const RESET = '\x1b[0m';

/** Maps one child output line to the text to print: pretty for a pino JSON line, with colours on a terminal. */
function linePrinter(stream: NodeJS.WriteStream) {
  const prettify = pinoPretty.prettyFactory({
    colorize: Boolean(stream.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return (prefix: string, line: string) => {
    // A pretty entry may span lines (fields, error stacks): each gets the child's name.
    const text = prettify(line).replace(/\n$/, '');
    stream.write(
      `${text
        .split('\n')
        .map((part) => `${prefix}${part}`)
        .join('\n')}\n`,
    );
  };
}

export class Supervisor {
  private readonly children: ManagedChild[] = [];
  private stopping = false;
  private readonly printOut = linePrinter(process.stdout);
  private readonly printErr = linePrinter(process.stderr);
  private readonly log: WriteStream;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    /** Where every child's log lines are appended. */
    logFile: string,
    /** Called once per child that exits while nothing asked it to. */
    private readonly onUnexpectedExit: (name: string, code: number | null, signal: NodeJS.Signals | null) => void,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  /** Keeps the line in the log file; shows it when it is a warning, an error or not a log line at all. */
  private take(name: string, prefix: string, line: string, print: (prefix: string, line: string) => void) {
    const level = levelOf(line);
    // The worker names itself already; a second "process" key would make the line ambiguous.
    if (level === null) this.log.write(`${name}: ${line}\n`);
    else if (line.includes('"process":')) this.log.write(`${line}\n`);
    else this.log.write(`{"process":${JSON.stringify(name)},${line.slice(1)}\n`);
    if (level === null || level >= WARN) print(prefix, line);
  }

  /** Starts `node dist/<script>` (a compiled entry, relative to the build folder) in the project root. */
  start(name: string, script: string): ManagedChild {
    const entry = path.join(BUILD_DIR, script);
    const child = spawn(process.execPath, [entry], { cwd: ROOT, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const color = process.stdout.isTTY ? COLORS[this.children.length % COLORS.length] : '';
    const prefix = color ? `${color}${name.padEnd(6)}${RESET} | ` : `${name.padEnd(6)} | `;
    createInterface({ input: child.stdout! }).on('line', (line) => this.take(name, prefix, line, this.printOut));
    createInterface({ input: child.stderr! }).on('line', (line) => this.take(name, prefix, line, this.printErr));
    child.once('exit', (code, signal) => {
      if (!this.stopping) this.onUnexpectedExit(name, code, signal);
    });
    const managed = { name, process: child };
    this.children.push(managed);
    return managed;
  }

  /** Whether a child has exited. */
  static exited(child: ChildProcess): boolean {
    return child.exitCode !== null || child.signalCode !== null;
  }

  /** Sends `signal` to every running child, waits for them (SIGKILL after `graceMs`). */
  async stopAll(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.children.map(async ({ process: child }) => {
        if (Supervisor.exited(child)) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }),
    );
    await new Promise<void>((resolve) => this.log.end(resolve));
  }
}
