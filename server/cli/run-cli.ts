import { ConfigError } from '../core/platform/config/settings.js';
import { isDependencyDown } from '../core/platform/dependency-errors.js';

/**
 * Shared plumbing of the command-line tools: a user error is one line on stderr and exit code 1;
 * stdout stays reserved for the command's result, so it can be piped or parsed.
 */
export class CliError extends Error {
  override name = 'CliError';
}

/** A mistake in the arguments: the message is followed by the command's usage. */
export class UsageError extends CliError {
  override name = 'UsageError';
}

/** The database is missing or refuses our credentials: as fixable as an unreachable one. */
const DATABASE_REFUSED = new Set(['3D000', '28P01', '28000']);

/** Explains the failures a user can fix (bad arguments, settings, an unreachable database). */
function describe(error: unknown, usage: string): string {
  if (error instanceof UsageError) return `${error.message}\n\n${usage}`;
  if (error instanceof CliError) return error.message;
  if (error instanceof ConfigError) return error.message;
  const code = (error as { code?: string } | null)?.code;
  if (isDependencyDown(error) || (code && DATABASE_REFUSED.has(code))) {
    return (
      `cannot reach Postgres (${code ?? 'no answer'}: ${(error as Error).message}).\n` +
      'Set DATABASE_URL, or keep `npm start` running: ' +
      'the commands then use the database it started (.data/runtime.env).'
    );
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Runs a command's main function and turns its failure into a message and exit code 1. */
export async function runCli(usage: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    process.stderr.write(`error: ${describe(error, usage)}\n`);
    process.exitCode = 1;
  }
}
