import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from './test-env.js';

/**
 * A redis-server of a test's own (no persistence), on a free port, that the test may stop and start again without
 * touching the machine's shared Redis. Stopped, its port refuses connections; started, it is empty.
 */
export interface OwnRedis {
  url: string;
  port: number;
  /** SIGKILL: clients see their connections drop at once. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;

  async function start() {
    if (child) return;
    const started = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (started.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${started.exitCode}`);
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not accept connections`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function stop() {
    const running = child;
    if (!running) return;
    child = null;
    if (running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start, close: stop };
}
