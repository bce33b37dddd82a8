import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue, QueueEvents } from 'bullmq';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { startTsProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import { createRedis } from '#core/platform/redis.js';
import { QUEUES } from '#core/jobs/queues.js';
import { createSharedProject, startTestWorker, stepRows, submit, validBody, workerEnv } from './submission-fixtures.js';

/**
 * The worker as a process: it starts, runs a health job end to end, and on SIGTERM lets the
 * job in progress finish, then exits 0.
 */
let server: TestServer;
let owner: TestPerson;
let smtp: SmtpCatcher;
const children: ChildProcessHandle[] = [];

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  server = await startTestServer({ SMTP_URL: smtp.url });
  owner = await server.person('owner@worker-process.test');
});
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  await server?.close();
  await smtp?.close();
});

/** Adds a health job and waits for its result, as an operator's probe would. */
async function runHealthJob(config: { redisUrl: string; queuePrefix: string }) {
  const connection = createRedis(config.redisUrl, 'worker');
  const queue = new Queue(QUEUES.health, { connection, prefix: config.queuePrefix });
  const events = new QueueEvents(QUEUES.health, { connection: connection.duplicate(), prefix: config.queuePrefix });
  try {
    await events.waitUntilReady();
    const job = await queue.add('health', {});
    return (await job.waitUntilFinished(events, 20_000)) as { ok: boolean; pid: number };
  } finally {
    await events.close();
    await queue.close();
    connection.disconnect();
  }
}

function startWorkerProcess() {
  const child = startTsProcess('worker/main.ts', workerEnv(server.env.env, { SMTP_URL: smtp.url, LOG_LEVEL: 'info' }));
  children.push(child);
  return child;
}

describe('worker', () => {
  it('runs a health job in this process and closes cleanly', async () => {
    const worker = await startTestWorker(server.env.env);
    try {
      const result = await runHealthJob(server.config);
      expect(result).toMatchObject({ ok: true, pid: process.pid });
    } finally {
      expect(await worker.close(5000)).toBe(true);
    }
  });

  it('as a process: starts, runs a health job, and exits 0 on SIGTERM', async () => {
    const child = startWorkerProcess();
    await child.waitForOutput(/"msg":"worker ready"/);
    const result = await runHealthJob(server.config);
    expect(result).toMatchObject({ ok: true, pid: child.child.pid });
    child.child.kill('SIGTERM');
    const exit = await child.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(child.output()).toContain('"graceful":true');
  });

  it('on SIGTERM lets the step in progress finish before exiting', async () => {
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'owner@shop.example' },
    });
    const held = smtp.holdNext();
    const child = startWorkerProcess();
    await child.waitForOutput(/"msg":"worker ready"/);
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    // The e-mail step is mid-send: the SMTP server has the message and has not answered yet.
    await held.received;
    child.child.kill('SIGTERM');
    await child.waitForOutput(/"msg":"worker shutting down"/);
    held.release(true);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(smtp.messages.map((m) => m.messageId)).toEqual([`<request-${requestId}@config-share>`]);
    // Recorded before the process went away, not left for another worker.
    const steps = await stepRows(server.deps.db, requestId);
    expect(steps.email).toMatchObject({ state: 'done', attempts: 1 });
  });
});
