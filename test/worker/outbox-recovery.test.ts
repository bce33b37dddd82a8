import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { startOwnRedis } from '../helpers/own-redis.js';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { createRedis } from '#core/platform/redis.js';
import { FIRST_SUBMISSION_STEPS, QUEUES, submissionJob, submissionJobId } from '#core/jobs/queues.js';
import { createSubmissionRepository } from '#core/repositories/submissions.js';
import { requestSteps } from '#core/platform/db/schema/index.js';
import { closeWorkerDeps, createWorkerDeps } from '../../worker/deps.js';
import { JOBS } from '../../worker/jobs/index.js';
import { dispatchOutbox } from '../../worker/outbox-relay.js';
import { createLogger } from '#core/platform/log.js';
import {
  createSharedProject,
  dataUrl,
  png,
  startTestWorker,
  submit,
  validBody,
  waitFor,
  waitForSteps,
  workerConfig,
} from './submission-fixtures.js';

/**
 * Store first, enqueue after: a submit is acknowledged once it is in Postgres, whatever Redis
 * and the workers are doing, and the outbox relay later hands BullMQ whatever it missed.
 */
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function outboxRows(server: TestServer, requestId: string) {
  const { rows } = await server.deps.db.$client.query<{ job_id: string; last_enqueued_at: Date | null }>(
    'select job_id, last_enqueued_at from outbox where job_id like $1 order by job_id',
    [`%${requestId}%`],
  );
  return rows;
}

/** Hands the request's first steps to BullMQ as a relay would, with no worker; resolves once BullMQ holds them. */
async function handOverToBullMQ(server: TestServer, requestId: string) {
  const deps = createWorkerDeps(workerConfig(server.env.env), createLogger('silent'), JOBS);
  try {
    const jobIds = [submissionJobId(requestId, 'screenshots'), submissionJobId(requestId, 'events')];
    await waitFor(async () => {
      await dispatchOutbox(deps);
      return (await Promise.all(jobIds.map((jobId) => deps.queues[QUEUES.submissionSteps].getJobState(jobId)))).every(
        (state) => state !== 'unknown',
      );
    }, 'the relay to enqueue the first steps');
  } finally {
    await closeWorkerDeps(deps);
  }
}

async function expectEverythingOnce(server: TestServer, smtp: SmtpCatcher, projectId: string, requestIds: string[]) {
  for (const id of requestIds) {
    const steps = await waitForSteps(server.deps.db, id, 60_000);
    for (const step of Object.values(steps)) expect(step).toMatchObject({ state: 'done', attempts: 1 });
    expect(await outboxRows(server, id)).toEqual([]);
  }
  await smtp.waitForMessages(requestIds.length);
  expect(smtp.messages.map((m) => m.messageId).sort()).toEqual(
    requestIds.map((id) => `<request-${id}@config-share>`).sort(),
  );
  const { rows } = await server.deps.db.$client.query<{ request_id: string }>(
    `select data->>'requestId' as request_id from project_events where project_id = $1 and type = 'form.submitted'`,
    [projectId],
  );
  expect(rows.map((r) => r.request_id).sort()).toEqual([...requestIds].sort());
}

describe('outbox', () => {
  it('acknowledges while no worker runs; a worker started later does everything once', async () => {
    const smtp = await startSmtpCatcher();
    cleanups.push(() => smtp.close());
    const server = await startTestServer({ SMTP_URL: smtp.url });
    cleanups.push(() => server.close());
    const owner = await server.person('owner@outbox.test');
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'owner@shop.example' },
    });

    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', png())] }));
      expect(res.status).toBe(200);
      ids.push((await res.json()).requestId);
    }
    // Committed with their first steps' outbox rows; nothing has run.
    for (const id of ids) {
      expect((await outboxRows(server, id)).map((r) => r.job_id)).toEqual([
        `sub_${id}_events`,
        `sub_${id}_screenshots`,
      ]);
      const { rows } = await server.deps.db.$client.query(
        'select state from submission_steps where submission_id = $1',
        [id],
      );
      expect(rows.map((r) => r.state)).toEqual(['pending', 'pending', 'pending', 'pending']);
    }

    const worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url });
    cleanups.push(() => worker.close(5000));
    await expectEverythingOnce(server, smtp, share.projectId, ids);
  });

  it("wakes the workers' relays after a commit: the steps run without waiting for a periodic sweep", async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    const owner = await server.person('owner@wake-up.test');
    const share = await createSharedProject(server, owner);
    // The periodic sweep runs once at start, then not for ten minutes.
    const worker = await startTestWorker(server.env.env, { OUTBOX_RELAY_INTERVAL_MS: '600000' });
    cleanups.push(() => worker.close(5000));
    await worker.relay!.sweep();
    const id = (await (await submit(server.url, share, validBody())).json()).requestId as string;
    const steps = await waitForSteps(server.deps.db, id);
    expect(steps.events).toMatchObject({ state: 'done', attempts: 1 });
  });

  it("hands the events step's webhook deliveries to BullMQ when it commits, without waiting for a sweep", async () => {
    const server = await startTestServer({ WEBHOOK_ALLOW_INSECURE: '1' });
    cleanups.push(() => server.close());
    const receiver = await startWebhookReceiver('whsec_' + Buffer.alloc(32, 3).toString('base64'));
    cleanups.push(() => receiver.close());
    const owner = await server.person('owner@events-nudge.test');
    const share = await createSharedProject(server, owner);
    const hook = await fetch(`${server.url}/projects/${share.projectId}/webhooks/forms`, {
      method: 'PUT',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/forms`, events: ['form.submitted'], secret: receiver.secret }),
    });
    expect(hook.status).toBe(201);
    // The periodic sweep runs once at start, then not for ten minutes.
    const worker = await startTestWorker(server.env.env, {
      WEBHOOK_ALLOW_INSECURE: '1',
      OUTBOX_RELAY_INTERVAL_MS: '600000',
    });
    cleanups.push(() => worker.close(5000));
    await worker.relay!.sweep();
    const id = (await (await submit(server.url, share, validBody())).json()).requestId as string;
    const [delivery] = await receiver.waitFor(1, (d) => d.path === '/hook/forms', 15_000);
    expect(delivery.json).toMatchObject({ event: 'form.submitted', data: { requestId: id } });
  });

  it('does everything once for a request whose server died between commit and hand-over to BullMQ', async () => {
    const smtp = await startSmtpCatcher();
    cleanups.push(() => smtp.close());
    const server = await startTestServer({ SMTP_URL: smtp.url });
    cleanups.push(() => server.close());
    const owner = await server.person('owner@died.test');
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'owner@shop.example' },
    });
    // What the submit route commits, without the hand-over that follows it.
    const id = randomUUID();
    const stored = await createSubmissionRepository(server.deps.db).create(
      {
        id,
        projectId: share.projectId,
        workspaceId: owner.workspaceId,
        formData: validBody().formData,
        selectedOptions: {},
        configurationSummary: '',
        idempotencyKey: null,
        clientIp: '192.0.2.1',
        screenshots: [],
        steps: requestSteps(false),
      },
      FIRST_SUBMISSION_STEPS.map((step) => submissionJob(id, step)),
      60_000,
    );
    expect(stored.outbox.map((job) => job.jobId).sort()).toEqual([
      submissionJobId(stored.id, 'events'),
      submissionJobId(stored.id, 'screenshots'),
    ]);

    const worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url });
    cleanups.push(() => worker.close(5000));
    await expectEverythingOnce(server, smtp, share.projectId, [stored.id]);
  });

  it('runs again a job BullMQ gave up on while Postgres still holds its work (e.g. stalled checker)', async () => {
    const smtp = await startSmtpCatcher();
    cleanups.push(() => smtp.close());
    const server = await startTestServer({ SMTP_URL: smtp.url });
    cleanups.push(() => server.close());
    const owner = await server.person('owner@gave-up.test');
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'owner@shop.example' },
    });
    const id = (await (await submit(server.url, share, validBody())).json()).requestId as string;
    await handOverToBullMQ(server, id);

    // Something other than our processors fails the jobs for good, as BullMQ does to a job that
    // stalled more than maxStalledCount times: Redis says "failed", the outbox rows stay.
    const connection = createRedis(server.config.redisUrl, 'worker');
    const queue = new Queue(QUEUES.submissionSteps, { connection, prefix: server.config.queuePrefix });
    const saboteur = new Worker(
      QUEUES.submissionSteps,
      async () => Promise.reject(new UnrecoverableError('job stalled more than allowable limit')),
      {
        connection,
        prefix: server.config.queuePrefix,
      },
    );
    const jobIds = [submissionJobId(id, 'screenshots'), submissionJobId(id, 'events')];
    await waitFor(
      async () => (await Promise.all(jobIds.map((j) => queue.getJobState(j)))).every((state) => state === 'failed'),
      'the jobs to fail',
    );
    await saboteur.close();
    await queue.close();
    connection.disconnect();
    expect((await outboxRows(server, id)).map((r) => r.job_id)).toEqual([...jobIds].sort());

    const worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url });
    cleanups.push(() => worker.close(5000));
    await expectEverythingOnce(server, smtp, share.projectId, [id]);
  });

  it('fails a step whose job stalls every worker that takes it, with the reason; the next steps run', async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    const owner = await server.person('owner@poison.test');
    const share = await createSharedProject(server, owner);
    const id = (
      await (await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', png())] }))).json()
    ).requestId as string;
    await handOverToBullMQ(server, id);

    // A worker that takes the screenshots job and never renews its lock, like one blocked or killed; it allows no
    // stall (maxStalledCount 0), so BullMQ fails the job on its next start, before any processor runs.
    const connection = createRedis(server.config.redisUrl, 'worker');
    const queue = new Queue(QUEUES.submissionSteps, { connection, prefix: server.config.queuePrefix });
    const jobId = submissionJobId(id, 'screenshots');
    const stalling = new Worker(QUEUES.submissionSteps, () => new Promise(() => {}), {
      connection,
      prefix: server.config.queuePrefix,
      lockDuration: 300,
      stalledInterval: 300,
      maxStalledCount: 0,
      skipLockRenewal: true,
    });
    await waitFor(async () => (await queue.getJobState(jobId)) === 'active', 'the stalling worker to take the job');
    await waitFor(async () => (await queue.getJobState(jobId)) === 'waiting', 'BullMQ to find the job stalled');
    await stalling.close(true);
    await queue.close();
    connection.disconnect();

    // The e-mail goes to the workspace's owner (the project names no address).
    const smtp = await startSmtpCatcher();
    cleanups.push(() => smtp.close());
    const worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url });
    cleanups.push(() => worker.close(5000));
    const steps = await waitForSteps(server.deps.db, id);
    expect(steps.screenshots).toMatchObject({
      state: 'failed',
      attempts: 0,
      last_error: 'gave up after repeated interruptions',
    });
    for (const step of ['pdf', 'email', 'events']) expect(steps[step]).toMatchObject({ state: 'done', attempts: 1 });
    const { request } = await (
      await fetch(`${server.url}/projects/${share.projectId}/requests/${id}`, { headers: owner.headers })
    ).json();
    expect(request.steps.screenshots).toMatchObject({ state: 'failed', error: 'gave up after repeated interruptions' });
    expect(request.pdfUrl).toEqual(expect.any(String));
    expect(await outboxRows(server, id)).toEqual([]);
  });

  it(
    'acknowledges while Redis is down; after Redis restarts empty the relay re-enqueues and every step runs once',
    { timeout: 120_000 },
    async () => {
      const redis = await startOwnRedis();
      cleanups.push(() => redis.close());
      const redisUrl = redis.url;

      const smtp = await startSmtpCatcher();
      cleanups.push(() => smtp.close());
      const server = await startTestServer({ REDIS_URL: redisUrl, SMTP_URL: smtp.url });
      cleanups.push(() => server.close());
      const owner = await server.person('owner@redis-down.test');
      const share = await createSharedProject(server, owner, {
        projectSettings: { emailAdminAddress: 'owner@shop.example' },
      });

      // A: enqueued in Redis, but no worker runs; the restart below loses those jobs.
      const a = (await (await submit(server.url, share, validBody())).json()).requestId as string;
      await handOverToBullMQ(server, a);

      await redis.stop();
      // B: Redis is down. The answer does not wait for it.
      const res = await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', png())] }));
      expect(res.status).toBe(200);
      const b = (await res.json()).requestId as string;
      // B's rows wait for the relay, never enqueued.
      await waitFor(
        async () => (await outboxRows(server, b)).every((r) => r.last_enqueued_at === null),
        "B's rows to wait for the relay",
      );

      // A worker starting meanwhile waits for Redis; Redis comes back empty.
      const starting = startTestWorker(server.env.env, { REDIS_URL: redisUrl, SMTP_URL: smtp.url });
      cleanups.push(async () => (await starting).close(5000));
      await redis.start();
      await starting;

      await expectEverythingOnce(server, smtp, share.projectId, [a, b]);
    },
  );
});
