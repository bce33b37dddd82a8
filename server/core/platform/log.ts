import { pino, type Logger as PinoLogger } from 'pino';

/**
 * The logger of non-Fastify processes (worker, commands): pino, like the server, so one log pipeline reads
 * every process; `err` fields keep their stack and cause.
 */
export type Logger = PinoLogger;

/** `level` is a pino level name (trace, debug, info, warn, error, fatal, silent); unknown names mean info. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  const known = level === 'silent' || level in pino.levels.values;
  return pino({ level: known ? level : 'info', base: bindings });
}
