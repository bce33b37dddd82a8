/**
 * SIGTERM/SIGINT handling shared by the three processes: close once, give up after a deadline
 * (a close can hang while Redis is unreachable, bullmq#4656), exit 0 when the close went well.
 */
export interface ShutdownLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export function exitGracefullyOnSignals(
  close: () => Promise<boolean | void>,
  options: { name: string; timeoutMs: number; log: ShutdownLog },
): void {
  let closing = false;
  async function shutdown(signal: NodeJS.Signals) {
    if (closing) return;
    closing = true;
    options.log.info({ signal }, `${options.name} shutting down`);
    setTimeout(() => process.exit(1), options.timeoutMs).unref();
    const graceful = await close().then(
      (result) => result !== false,
      (error: unknown) => {
        options.log.error({ err: error }, 'shutdown failed');
        return false;
      },
    );
    options.log.info({ graceful }, `${options.name} stopped`);
    process.exit(graceful ? 0 : 1);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** Exits with a clear message when the listen address is taken. */
export function exitOnListenError(
  error: unknown,
  what: string,
  address: string,
  setting: string,
  log: { fatal(obj: unknown, msg?: string): void },
): never {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    log.fatal({}, `${what}: ${address} is already in use: stop what runs there or set ${setting}.`);
  } else {
    log.fatal({ err: error }, `${what} could not start`);
  }
  process.exit(1);
}
