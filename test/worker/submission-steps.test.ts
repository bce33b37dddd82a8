import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Job } from 'bullmq';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { closeWorkerDeps, createWorkerDeps } from '../../worker/deps.js';
import type { WorkerDeps } from '../../worker/jobs/define-job.js';
import { JOBS } from '../../worker/jobs/index.js';
import { createLogger } from '#core/platform/log.js';
import {
  StepBusyError,
  runSubmissionStep,
  type StepProcessor,
  type SubmissionJobData,
} from '../../worker/submission-step.js';
import { PROJECT_MAIL_MESSAGES } from '../../worker/mail.js';
import { freePort } from '../helpers/test-env.js';
import { submissionEvents as eventsStep } from '../../worker/jobs/submission-events.js';
import { submissionPdf as pdfStep } from '../../worker/jobs/submission-pdf.js';
import { submissionJobId } from '#core/jobs/queues.js';
import {
  createSharedProject,
  startTestWorker,
  stepRows,
  submit,
  validBody,
  waitFor,
  waitForSteps,
  workerConfig,
} from './submission-fixtures.js';

/** Each background step's own rules: where mail goes, what counts as failed, retries, deletion, idempotency. */
let server: TestServer;
let owner: TestPerson;
let platformSmtp: SmtpCatcher;

beforeAll(async () => {
  platformSmtp = await startSmtpCatcher();
  server = await startTestServer();
  owner = await server.person('owner@steps.test');
});
afterAll(async () => {
  await server?.close();
  await platformSmtp?.close();
});

const query = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await server.deps.db.$client.query(sql, params)).rows as T[];

async function withWorker<T>(overrides: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const worker = await startTestWorker(server.env.env, overrides);
  try {
    return await work();
  } finally {
    await worker.close(5000);
  }
}

describe('e-mail step', () => {
  it('fails at once, with the reason, when no SMTP server is configured; the other steps still finish', async () => {
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'owner@shop.example' },
    });
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const steps = await withWorker({}, () => waitForSteps(server.deps.db, requestId));
    expect(steps.email).toMatchObject({
      state: 'failed',
      attempts: 1,
      last_error: expect.stringContaining('SMTP_URL'),
    });
    for (const step of ['screenshots', 'pdf', 'events']) expect(steps[step].state).toBe('done');
    const { request } = await (
      await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, { headers: owner.headers })
    ).json();
    expect(request.steps.email).toMatchObject({ state: 'failed', error: expect.stringContaining('No SMTP server') });
  });

  it("uses the project's own SMTP settings, with its credentials, instead of the platform's", async () => {
    const projectSmtp = await startSmtpCatcher();
    try {
      const share = await createSharedProject(server, owner, {
        projectSettings: {
          emailAdminAddress: 'a@shop.example, b@shop.example',
          smtpHost: '127.0.0.1',
          smtpPort: projectSmtp.port,
          smtpSecure: false,
          smtpUser: 'mailer@shop.example',
          smtpPassword: 'smtp-secret',
        },
      });
      const { requestId } = await (await submit(server.url, share, validBody())).json();
      // The catcher is a private address on a random port: allowed only with SMTP_ALLOW_PRIVATE.
      await withWorker({ SMTP_URL: platformSmtp.url, SMTP_ALLOW_PRIVATE: '1' }, () =>
        waitForSteps(server.deps.db, requestId),
      );
      const [mail] = await projectSmtp.waitForMessages(1);
      expect(mail).toMatchObject({
        to: ['a@shop.example', 'b@shop.example'],
        from: 'mailer@shop.example',
        auth: { username: 'mailer@shop.example', password: 'smtp-secret' },
      });
      expect(platformSmtp.messages.filter((m) => m.messageId.includes(requestId))).toEqual([]);
    } finally {
      await projectSmtp.close();
    }
  });

  it("refuses a project's SMTP host on a private address: the step fails at once, nothing is sent", async () => {
    const projectSmtp = await startSmtpCatcher();
    try {
      const share = await createSharedProject(server, owner, {
        projectSettings: {
          emailAdminAddress: 'owner@shop.example',
          smtpHost: '127.0.0.1',
          smtpPort: 587,
          smtpUser: 'u@shop.example',
          smtpPassword: 'p',
        },
      });
      const other = await createSharedProject(server, owner, {
        projectSettings: { emailAdminAddress: 'owner@shop.example', smtpHost: 'localhost', smtpPort: projectSmtp.port },
      });
      const { requestId } = await (await submit(server.url, share, validBody())).json();
      const { requestId: otherId } = await (await submit(server.url, other, validBody())).json();
      const [steps, otherSteps] = await withWorker({ SMTP_URL: platformSmtp.url }, () =>
        Promise.all([waitForSteps(server.deps.db, requestId), waitForSteps(server.deps.db, otherId)]),
      );
      expect(steps.email).toMatchObject({
        state: 'failed',
        attempts: 1,
        last_error: "The project's SMTP host is not allowed: it resolves to a private address.",
      });
      for (const step of ['screenshots', 'pdf', 'events']) expect(steps[step].state).toBe('done');
      // A name that resolves to loopback, on a catcher's port: refused for its port before any lookup.
      expect(otherSteps.email).toMatchObject({ state: 'failed', attempts: 1, last_error: PROJECT_MAIL_MESSAGES.port });
      const { request } = await (
        await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, { headers: owner.headers })
      ).json();
      expect(request.steps.email).toMatchObject({ state: 'failed', error: PROJECT_MAIL_MESSAGES.blocked });
      // Neither the project's catcher nor the platform's (no fallback to SMTP_URL) got anything.
      expect(projectSmtp.messages).toEqual([]);
      expect(platformSmtp.messages.filter((m) => [requestId, otherId].some((id) => m.messageId.includes(id)))).toEqual(
        [],
      );
    } finally {
      await projectSmtp.close();
    }
  });

  it("shows a fixed message, not the socket's error, when a project's SMTP server cannot be reached", async () => {
    const closedPort = await freePort();
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'owner@shop.example', smtpHost: '127.0.0.1', smtpPort: closedPort },
    });
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const email = await withWorker({ SMTP_ALLOW_PRIVATE: '1' }, () =>
      waitFor(async () => {
        const { email: row } = await stepRows(server.deps.db, requestId);
        return row?.last_error ? row : null;
      }, 'the retried error to show'),
    );
    expect(email).toMatchObject({ state: 'pending', attempts: 1, last_error: PROJECT_MAIL_MESSAGES.refused });
    expect(email.last_error).not.toContain(String(closedPort));
  });

  it('retries a temporary SMTP refusal, showing the error meanwhile, and delivers once', async () => {
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'owner@shop.example' },
    });
    const held = platformSmtp.holdNext();
    await withWorker({ SMTP_URL: platformSmtp.url }, async () => {
      const { requestId } = await (await submit(server.url, share, validBody())).json();
      await held.received;
      held.release(false);
      const pending = await waitFor(async () => {
        const { request } = await (
          await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, { headers: owner.headers })
        ).json();
        return request.steps.email.error ? request.steps.email : null;
      }, 'the retried error to show');
      expect(pending).toMatchObject({
        state: 'pending',
        attempts: 1,
        error: expect.stringContaining('try again later'),
      });
      const steps = await waitForSteps(server.deps.db, requestId);
      expect(steps.email).toMatchObject({ state: 'done', attempts: 2, last_error: null });
      expect(platformSmtp.messages.filter((m) => m.messageId === `<request-${requestId}@config-share>`)).toHaveLength(
        1,
      );
    });
  });
});

describe('step runner', () => {
  let deps: WorkerDeps;
  beforeAll(() => {
    deps = createWorkerDeps(workerConfig(server.env.env), createLogger('silent'), JOBS);
  });
  afterAll(() => closeWorkerDeps(deps));

  const fakeJob = (submissionId: string, step: string, attemptsMade = 0) =>
    ({
      id: submissionJobId(submissionId, step as never),
      name: step,
      data: { submissionId },
      attemptsMade,
      opts: { attempts: 8 },
    }) as unknown as Job<SubmissionJobData>;

  it('skips a step that is already done, so a redelivered job emits nothing twice', async () => {
    const share = await createSharedProject(server, owner, { pricingBlocks: [{ id: 'base' }] });
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    expect(await runSubmissionStep(deps, fakeJob(requestId, 'events'), eventsStep)).toMatchObject({ done: true });
    expect(await runSubmissionStep(deps, fakeJob(requestId, 'events'), eventsStep)).toMatchObject({ skipped: 'done' });
    const events = await query<{ type: string }>(
      'select type from project_events where project_id = $1 and type like $2 order by type',
      [share.projectId, '%.submitted'],
    );
    expect(events.map((e) => e.type)).toEqual(['form.submitted', 'quote.submitted']);
    expect((await stepRows(server.deps.db, requestId)).events).toMatchObject({ state: 'done', attempts: 1 });
    expect(await query('select job_id from outbox where job_id = $1', [submissionJobId(requestId, 'events')])).toEqual(
      [],
    );
  });

  it('on the last failed attempt marks the step failed and still hands over to the next step', async () => {
    const share = await createSharedProject(server, owner);
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const broken = { ...pdfStep, run: async () => Promise.reject(new Error('renderer exploded')) };
    // An earlier attempt: the error is kept, the step stays pending, nothing is handed over.
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'pdf', 0), broken)).rejects.toThrow('renderer exploded');
    expect((await stepRows(server.deps.db, requestId)).pdf).toMatchObject({
      state: 'pending',
      last_error: 'renderer exploded',
    });
    expect(await query('select job_id from outbox where job_id = $1', [submissionJobId(requestId, 'email')])).toEqual(
      [],
    );
    // The last attempt.
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'pdf', 7), broken)).rejects.toThrow('renderer exploded');
    expect((await stepRows(server.deps.db, requestId)).pdf).toMatchObject({
      state: 'failed',
      attempts: 2,
      last_error: 'renderer exploded',
    });
    expect(
      await query('select job_id from outbox where job_id = $1', [submissionJobId(requestId, 'email')]),
    ).toHaveLength(1);
    expect(await query('select job_id from outbox where job_id = $1', [submissionJobId(requestId, 'pdf')])).toEqual([]);
  });

  it('runs a step once when its job is delivered twice at once: the second finds it busy, retries', async () => {
    const share = await createSharedProject(server, owner);
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    let runs = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow: StepProcessor = {
      step: 'events',
      async run(ctx) {
        runs++;
        started();
        await released;
        return eventsStep.run(ctx);
      },
    };
    const first = runSubmissionStep(deps, fakeJob(requestId, 'events'), slow);
    await running;
    // The redelivered job: the step holds a live lease.
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'events'), slow)).rejects.toBeInstanceOf(StepBusyError);
    release();
    expect(await first).toMatchObject({ done: true });
    expect(runs).toBe(1);
    const [row] = await query<{ state: string; attempts: number; last_error: string | null; leased: boolean }>(
      `select state, attempts, last_error, lease_holder is not null as leased
       from submission_steps where submission_id = $1 and step = $2`,
      [requestId, 'events'],
    );
    // The busy job counted no attempt and left no error; finishing released the lease.
    expect(row).toEqual({ state: 'done', attempts: 1, last_error: null, leased: false });
    // Its retry finds the step done.
    expect(await runSubmissionStep(deps, fakeJob(requestId, 'events'), slow)).toMatchObject({ skipped: 'done' });
    expect(runs).toBe(1);
  });

  it('lets one of two simultaneous claims run, frees the step for a retry, takes over an expired lease', async () => {
    const share = await createSharedProject(server, owner);
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const claims = await Promise.all([
      deps.steps.claim(requestId, 'pdf', 60_000),
      deps.steps.claim(requestId, 'pdf', 60_000),
    ]);
    expect(claims.map((c) => c.kind).sort()).toEqual(['busy', 'run']);
    // A failed run that will be retried frees the step at once (the retry comes before the lease would end).
    const first = claims.find((c) => c.kind === 'run')!;
    await deps.steps.recordStepError(requestId, 'pdf', 'renderer exploded');
    if (first.kind === 'run') await deps.steps.release(first.lease);
    expect(await deps.steps.claim(requestId, 'pdf', 60_000)).toEqual({
      kind: 'run',
      attempts: 2,
      lease: expect.any(Object),
    });
    expect(await deps.steps.claim(requestId, 'pdf', 60_000)).toEqual({ kind: 'busy' });
    // A run that died without a word: once its lease has run out, another run takes the step.
    await query(
      `update submission_steps set leased_until = now() - interval '1 second' where submission_id = $1 and step = $2`,
      [requestId, 'pdf'],
    );
    expect(await deps.steps.claim(requestId, 'pdf', 60_000)).toEqual({
      kind: 'run',
      attempts: 3,
      lease: expect.any(Object),
    });
  });

  it('does nothing for a request deleted before its jobs ran', async () => {
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'owner@shop.example' },
    });
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const deleted = await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, {
      method: 'DELETE',
      headers: owner.headers,
    });
    expect(deleted.status).toBe(200);
    // The jobs were already in Redis; a worker takes them and finds nothing to do.
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'pdf'), pdfStep)).rejects.toThrow('deleted');
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'events'), eventsStep)).rejects.toThrow('deleted');
    expect(
      await query(`select id from project_events where data->>'requestId' = $1 and type = 'form.submitted'`, [
        requestId,
      ]),
    ).toEqual([]);
    const requestsDir = path.join(server.env.storageDir, 'workspaces', owner.workspaceId, 'requests');
    expect(await readdir(requestsDir).catch(() => [])).not.toContain(requestId);
    expect(await query('select job_id from outbox where job_id like $1', [`%${requestId}%`])).toEqual([]);
  });
});
