/**
 * Webhook delivery throughput and latency: a real worker delivering to a sink process, next to its ceiling (a raw
 * undici loop signing the same bodies with as many requests in flight), alternating ROUNDS times, median ratio kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Agent, request } from 'undici';
import { Redis } from 'ioredis';
import type { Db } from '#core/platform/db/client.js';
import { emitEvent } from '#core/services/events.js';
import { outboxWakeUpChannel } from '#core/jobs/outbox.js';
import { signedHeaders } from '#core/domain/webhooks/signature.js';
import { freePort } from '../helpers/test-env.js';
import { cpuMsOf } from './process-cpu.js';

const WEBHOOKS = 10;
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 64);
const SECRET = 'whsec_' + Buffer.alloc(32, 1).toString('base64');

interface SinkStats {
  count: number;
  first: number;
  last: number;
  p50: number;
  p95: number;
  samples: number;
}

export interface WebhookBenchResult {
  deliveriesPerSecond: number;
  ceilingPerSecond: number;
  ratio: number;
  p50Ms: number;
  p95Ms: number;
  paceDeliveriesPerSecond: number;
  rounds: number;
  /** CPU time per delivery while the backlog drained (all rounds), in microseconds. */
  cpuPerDelivery: { worker: number; postgres: number; redis: number; sink: number };
  /** CPU time per request of the ceiling loop (this process) and the sink, in microseconds. */
  ceilingCpuPerRequest: { loop: number; sink: number };
}

/** The processes whose CPU time the bench reports (by command line). */
const PROCESSES = {
  worker: (cmd: string) => cmd.includes('worker/main.ts'),
  postgres: (cmd: string) => cmd.startsWith('postgres'),
  redis: (cmd: string) => cmd.startsWith('redis-server') || cmd.includes('/redis-server'),
  sink: (cmd: string) => cmd.includes('test/bench/webhook-sink.ts'),
};
type CpuReading = Record<keyof typeof PROCESSES, number>;
const readCpu = (): CpuReading =>
  Object.fromEntries(Object.entries(PROCESSES).map(([name, matches]) => [name, cpuMsOf(matches)])) as CpuReading;
const cpuSince = (before: CpuReading): CpuReading => {
  const now = readCpu();
  return Object.fromEntries(
    Object.keys(now).map((name) => [name, now[name as keyof CpuReading] - before[name as keyof CpuReading]]),
  ) as CpuReading;
};

async function waitUntil<T>(probe: () => Promise<T | null>, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function benchWebhooks(options: {
  env: Record<string, string>;
  db: Db;
  workspaceId: string;
  api: string;
  ownerHeaders: Record<string, string>;
  rounds: number;
}): Promise<WebhookBenchResult> {
  const { env, db, workspaceId, api, ownerHeaders, rounds } = options;
  const tsx = path.resolve('node_modules/.bin/tsx');
  const sinkPort = await freePort();
  const sinkUrl = `http://127.0.0.1:${sinkPort}`;
  const sink = spawn(tsx, ['test/bench/webhook-sink.ts'], {
    env: { ...process.env, SINK_PORT: String(sinkPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const workerEnv = {
    ...process.env,
    ...env,
    WEBHOOK_ALLOW_INSECURE: '1',
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_ENDPOINT_CONCURRENCY: String(CONCURRENCY),
  };
  let worker: ChildProcess | null = null;
  const redis = new Redis(env.REDIS_URL);
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const stats = async (): Promise<SinkStats> => (await fetch(`${sinkUrl}/stats`)).json() as Promise<SinkStats>;
  const reset = () => fetch(`${sinkUrl}/reset`, { method: 'POST' });
  try {
    await waitUntil(
      async () =>
        (await fetch(`${sinkUrl}/stats`)
          .then((r) => r.ok)
          .catch(() => false)) || null,
      'the sink',
    );
    // One project, WEBHOOKS webhooks to the sink: each event fans out to all of them.
    const project = await (
      await fetch(`${api}/projects`, {
        method: 'POST',
        headers: ownerHeaders,
        body: JSON.stringify({ name: 'webhooks', type: 'configurator' }),
      })
    ).json();
    const projectId: string = project.project.id;
    for (let i = 0; i < WEBHOOKS; i++) {
      const res = await fetch(`${api}/projects/${projectId}/webhooks/sink-${i}`, {
        method: 'PUT',
        headers: ownerHeaders,
        body: JSON.stringify({ url: `${sinkUrl}/hook/${i}`, events: ['price.calculated'], secret: SECRET }),
      });
      if (res.status !== 201)
        throw new Error(`bench: webhook not created (${res.status}); is WEBHOOK_ALLOW_INSECURE=1 set for the server?`);
    }
    worker = spawn(
      tsx,
      [...(process.env.BENCH_WORKER_NODE_ARGS ? process.env.BENCH_WORKER_NODE_ARGS.split(' ') : []), 'worker/main.ts'],
      { env: workerEnv, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const wakeUp = () => redis.publish(outboxWakeUpChannel(env.QUEUE_PREFIX), '1');
    const data = { total: 129.5, currency: 'EUR', options: { wood: 'oak', legs: 4 } };

    // Warm-up: the worker is up and its connections to the sink are open.
    await reset();
    await db.transaction(async (tx) => {
      for (let i = 0; i < 20; i++)
        await emitEvent({ db }, tx, { workspaceId, projectId, type: 'price.calculated', data });
    });
    await wakeUp();
    await waitUntil(async () => ((await stats()).count >= 20 * WEBHOOKS ? true : null), 'the warm-up deliveries');

    const total = EVENTS * WEBHOOKS;
    const results: Array<{ pipeline: number; ceiling: number }> = [];
    const drainCpu: CpuReading = { worker: 0, postgres: 0, redis: 0, sink: 0 };
    let ceilingLoopCpuMs = 0;
    let ceilingSinkCpuMs = 0;
    for (let round = 0; round < rounds; round++) {
      // The pipeline: a backlog committed at once, drained by the worker.
      await reset();
      await db.transaction(async (tx) => {
        for (let i = 0; i < EVENTS; i++)
          await emitEvent({ db }, tx, { workspaceId, projectId, type: 'price.calculated', data: { ...data, n: i } });
      });
      const cpuBefore = readCpu();
      await wakeUp();
      const done = await waitUntil(async () => {
        const s = await stats();
        return s.count >= total ? s : null;
      }, 'the backlog to be delivered');
      const pipeline = ((done.count - 1) * 1000) / Math.max(1, done.last - done.first);
      for (const [name, ms] of Object.entries(cpuSince(cpuBefore))) drainCpu[name as keyof CpuReading] += ms;

      // The ceiling: the same bodies, signed the same way, posted by a bare loop.
      await reset();
      const bodies = Array.from({ length: total }, (_, i) =>
        JSON.stringify({
          id: `e${i}`,
          event: 'price.calculated',
          createdAt: new Date().toISOString(),
          projectId,
          data: { ...data, n: i },
        }),
      );
      let next = 0;
      const loopBefore = process.cpuUsage();
      const sinkBefore = cpuMsOf(PROCESSES.sink);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < bodies.length) {
            const i = next++;
            const headers = signedHeaders({
              secret: SECRET,
              deliveryId: `d${i}`,
              event: 'price.calculated',
              attempt: 2,
              timestamp: Math.floor(Date.now() / 1000),
              body: bodies[i],
            });
            const res = await request(`${sinkUrl}/hook/${i % WEBHOOKS}`, {
              method: 'POST',
              headers,
              body: bodies[i],
              dispatcher: agent,
            });
            await res.body.dump();
          }
        }),
      );
      const loopUsed = process.cpuUsage(loopBefore);
      ceilingLoopCpuMs += (loopUsed.user + loopUsed.system) / 1000;
      ceilingSinkCpuMs += cpuMsOf(PROCESSES.sink) - sinkBefore;
      const bare = await stats();
      const ceiling = ((bare.count - 1) * 1000) / Math.max(1, bare.last - bare.first);
      results.push({ pipeline, ceiling });
    }
    results.sort((a, b) => a.pipeline / a.ceiling - b.pipeline / b.ceiling);
    const median = results[Math.floor(results.length / 2)];

    // Latency at a steady pace below capacity: an event (WEBHOOKS deliveries) every 10 ms for 5 s.
    await reset();
    const paceEvents = 500;
    const paceStart = Date.now();
    for (let i = 0; i < paceEvents; i++) {
      const due = paceStart + i * 10;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      await db.transaction((tx) =>
        emitEvent({ db }, tx, { workspaceId, projectId, type: 'price.calculated', data: { ...data, n: i } }),
      );
      void wakeUp();
    }
    const paced = await waitUntil(async () => {
      const s = await stats();
      return s.count >= paceEvents * WEBHOOKS ? s : null;
    }, 'the paced deliveries');
    return {
      deliveriesPerSecond: median.pipeline,
      ceilingPerSecond: median.ceiling,
      ratio: median.pipeline / median.ceiling,
      p50Ms: paced.p50,
      p95Ms: paced.p95,
      paceDeliveriesPerSecond: (paceEvents * WEBHOOKS * 1000) / Math.max(1, paced.last - paceStart),
      rounds,
      cpuPerDelivery: Object.fromEntries(
        Object.entries(drainCpu).map(([name, ms]) => [name, (ms * 1000) / (total * rounds)]),
      ) as WebhookBenchResult['cpuPerDelivery'],
      ceilingCpuPerRequest: {
        loop: (ceilingLoopCpuMs * 1000) / (total * rounds),
        sink: (ceilingSinkCpuMs * 1000) / (total * rounds),
      },
    };
  } finally {
    await agent.close();
    redis.disconnect();
    for (const child of [worker, sink]) {
      if (!child || child.exitCode !== null) continue;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
}
