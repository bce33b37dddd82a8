/**
 * The worker's logger: one JSON line per entry on stdout, filtered by LOG_LEVEL (the same
 * levels and line shape as the server's pino logs, so one log pipeline reads both).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Logger = Record<LogLevel, (fields: Record<string, unknown>, message: string) => void>;

const RANK: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

function errorFields(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  // The cause is what a wrapped error (a fixed message shown to users) hides from them, not from operators.
  return { type: value.name, message: value.message, stack: value.stack, ...(value.cause !== undefined ? { cause: errorFields(value.cause) } : {}) };
}

/** `level` is a pino level name (trace, debug, info, warn, error, fatal, silent); unknown names mean info. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  const threshold = RANK[level] ?? RANK.info;
  const write = (name: LogLevel) => (fields: Record<string, unknown>, message: string) => {
    if (RANK[name] < threshold) return;
    const entry: Record<string, unknown> = { level: RANK[name], time: Date.now(), ...bindings, msg: message };
    for (const [key, value] of Object.entries(fields)) entry[key] = errorFields(value);
    process.stdout.write(`${JSON.stringify(entry)}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
