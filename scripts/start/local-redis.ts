import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { DATA_DIR } from './paths.js';
import { isPortFree, pickPort } from './ports.js';
import { StartError } from './start-error.js';
import { withTimeout } from '#core/platform/deadline.js';

/**
 * Redis for `npm start`: the one at REDIS_URL when it answers; else, for a local address and
 * with `redis-server` installed, one started here that keeps nothing on disk.
 */
export interface RedisHandle {
  /** Where it answers: REDIS_URL, or another local port when `movable` and that one was held. */
  url: string;
  /** Whether this process started it (and so stops it). */
  started: boolean;
  /** Resolves when a Redis started here exits; never for one that was already running. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

class RedisUnavailableError extends StartError {
  override name = 'RedisUnavailableError';
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** One PING with short timeouts and no retries. */
async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

function onPath(binary: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export async function ensureRedis(url: string, log: (line: string) => void, movable = false): Promise<RedisHandle> {
  if (await redisAnswers(url)) return { url, started: false, exited: new Promise(() => {}), stop: async () => {} };

  const parsed = new URL(url);
  const binary = onPath('redis-server');
  const install =
    'Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) ' +
    'or point REDIS_URL at a running one.';
  if (!LOCAL_HOSTS.has(parsed.hostname))
    throw new RedisUnavailableError(
      `Redis does not answer at ${parsed.host}. Start it, or point REDIS_URL at a running one.`,
    );
  if (!binary)
    throw new RedisUnavailableError(
      `Redis does not answer at ${parsed.host} and redis-server is not installed. ${install}`,
    );

  const bare = parsed.hostname.replace(/^\[|\]$/g, '');
  const host = bare === 'localhost' ? '127.0.0.1' : bare;
  const asked = parsed.host;
  let port = parsed.port || '6379';
  // Something other than Redis holds the port: a Redis of our own goes elsewhere when it may.
  if (movable && !(await isPortFree(Number(port), host))) {
    port = String(await pickPort(Number(port), host));
    parsed.port = port;
  }
  log(`no Redis answers at ${asked}: starting ${binary} on ${host}:${port} (in memory only)`);
  await mkdir(DATA_DIR, { recursive: true });
  const child: ChildProcess = spawn(
    binary,
    ['--port', port, '--bind', host, '--save', '', '--appendonly', 'no', '--dir', DATA_DIR],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;

  const deadline = Date.now() + 10_000;
  while (!(await redisAnswers(parsed.toString()))) {
    if (!alive() || Date.now() > deadline) {
      if (alive()) child.kill('SIGTERM');
      throw new RedisUnavailableError(`redis-server did not come up on ${host}:${port}:\n${output.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: parsed.toString(),
    started: true,
    exited,
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      await withTimeout(() => exited, 5000).catch(() => {});
    },
  };
}
