import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import net from 'node:net';

/** Settings every test process shares; secrets are fixed so tokens can be minted in tests. */
export const TEST_SECRETS = {
  AUTH_JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789abcdef',
  PUBLIC_ANON_KEY: 'test-public-anon-key-0123456789',
  FILE_SIGNING_SECRET: 'test-file-signing-secret-0123456789abcdef',
  TOKEN_ENCRYPTION_KEY: 'test-token-encryption-key-0123456789abcdef',
};

export interface TestEnv {
  /** Environment for loadConfig (and for child processes: server, worker). */
  env: Record<string, string>;
  databaseUrl: string;
  storageDir: string;
  cleanup(): Promise<void>;
}

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A database copied from the migrated template, a queue prefix and a storage folder of its own. */
export async function createTestEnv(overrides: Record<string, string> = {}): Promise<TestEnv> {
  const base = inject('baseDatabaseUrl');
  const template = inject('templateDatabase');
  const id = randomBytes(5).toString('hex');
  // Named after the run (the template's pid), so a run's teardown drops only its own databases.
  const name = `cs_t_${template.replace('cs_tpl_', '')}_${id}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (error) {
      // Two files copying the template at the same instant: wait and retry.
      if (attempt > 20) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const storageDir = await mkdtemp(path.join(tmpdir(), 'cs-storage-'));
  const databaseUrl = withDatabase(base, name);
  const env: Record<string, string> = {
    ...TEST_SECRETS,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `cs-t-${id}`,
    STORAGE_DIR: storageDir,
    LOG_LEVEL: 'silent',
    // Worker processes of parallel test files must not race for the default health port.
    WORKER_HEALTH_PORT: '0',
    ...overrides,
  };
  return {
    env,
    databaseUrl,
    storageDir,
    async cleanup() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await client.end();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** A port nobody listens on right now (signed URLs need the real port before listen). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
