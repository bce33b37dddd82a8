/** Socket-level failures: the dependency (Postgres, Redis, storage) is unreachable, not the request wrong. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const DOWN_MESSAGES = new RegExp(
  '^(' +
    [
      'Connection is closed\\.',
      "Stream isn't writeable",
      'Command timed out',
      'Connection terminated',
      'timeout exceeded when trying to connect',
      // pg, on a client whose connection Postgres ended while it was lent (a restart mid-transaction).
      'Client has encountered a connection error and is not queryable',
    ].join('|') +
    ')',
);
/** Postgres refusing work: shutting down, starting up, too many connections. Class 08 is connection exceptions. */
const POSTGRES_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Whether an error means Postgres, Redis or file storage is down (503 `unavailable`: docs/api.md, Wire conventions)
 * rather than a bug.
 */
export function isDependencyDown(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current && depth < 4;
    current = (current as { cause?: unknown }).cause, depth++
  ) {
    const { code, name, message } = current as { code?: unknown; name?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (CONNECTION_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code) || code.startsWith('08'))
    )
      return true;
    if (name === 'MaxRetriesPerRequestError' || name === 'StorageUnavailableError') return true;
    // ioredis without an offline queue (the request path), ioredis timeouts, pg-pool.
    if (typeof message === 'string' && DOWN_MESSAGES.test(message)) return true;
  }
  return false;
}
