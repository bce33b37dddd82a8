import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Job } from 'bullmq';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from '../../worker/deps.js';
import { createLogger } from '../../worker/log.js';
import { runSubmissionStep, type SubmissionJobData } from '../../worker/submission-step.js';
import { eventsStep } from '../../worker/processors/events.js';
import { pdfStep } from '../../worker/processors/pdf.js';
import { submissionJobId } from '../../server/core/submission-jobs.js';
import { createSharedProject, startTestWorker, stepRows, submit, validBody, waitFor, waitForSteps, workerConfig } from './submission-fixtures.js';

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

const query = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await server.deps.db.$client.query(sql, params)).rows as T[];

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
    const share = await createSharedProject(server, owner, { projectSettings: { emailAdminAddress: 'owner@shop.example' } });
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const steps = await withWorker({}, () => waitForSteps(server.deps.db, requestId));
    expect(steps.email).toMatchObject({ state: 'failed', attempts: 1, last_error: expect.stringContaining('SMTP_URL') });
    for (const step of ['screenshots', 'pdf', 'events']) expect(steps[step].state).toBe('done');
    const { request } = await (await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, { headers: owner.headers })).json();
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
      await withWorker({ SMTP_URL: platformSmtp.url }, () => waitForSteps(server.deps.db, requestId));
      const [mail] = await projectSmtp.waitForMessages(1);
      expect(mail).toMatchObject({ to: ['a@shop.example', 'b@shop.example'], from: 'mailer@shop.example', auth: { username: 'mailer@shop.example', password: 'smtp-secret' } });
      expect(platformSmtp.messages.filter((m) => m.messageId.includes(requestId))).toEqual([]);
    } finally {
      await projectSmtp.close();
    }
  });

  it('retries a temporary SMTP refusal, showing the error meanwhile, and delivers once', async () => {
    const share = await createSharedProject(server, owner, { projectSettings: { emailAdminAddress: 'owner@shop.example' } });
    const held = platformSmtp.holdNext();
    await withWorker({ SMTP_URL: platformSmtp.url }, async () => {
      const { requestId } = await (await submit(server.url, share, validBody())).json();
      await held.received;
      held.release(false);
      const pending = await waitFor(async () => {
        const { request } = await (await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, { headers: owner.headers })).json();
        return request.steps.email.error ? request.steps.email : null;
      }, 'the retried error to show');
      expect(pending).toMatchObject({ state: 'pending', attempts: 1, error: expect.stringContaining('try again later') });
      const steps = await waitForSteps(server.deps.db, requestId);
      expect(steps.email).toMatchObject({ state: 'done', attempts: 2, last_error: null });
      expect(platformSmtp.messages.filter((m) => m.messageId === `<request-${requestId}@config-share>`)).toHaveLength(1);
    });
  });
});

describe('step runner', () => {
  let deps: WorkerDeps;
  beforeAll(() => {
    deps = createWorkerDeps(workerConfig(server.env.env), createLogger('silent'));
  });
  afterAll(() => closeWorkerDeps(deps));

  const fakeJob = (submissionId: string, step: string, attemptsMade = 0) =>
    ({ id: submissionJobId(submissionId, step as never), name: step, data: { submissionId }, attemptsMade, opts: { attempts: 8 } }) as unknown as Job<SubmissionJobData>;

  it('skips a step that is already done, so a redelivered job emits nothing twice', async () => {
    const share = await createSharedProject(server, owner, { pricingBlocks: [{ id: 'base' }] });
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    expect(await runSubmissionStep(deps, fakeJob(requestId, 'events'), eventsStep)).toMatchObject({ done: true });
    expect(await runSubmissionStep(deps, fakeJob(requestId, 'events'), eventsStep)).toMatchObject({ skipped: 'done' });
    const events = await query<{ type: string }>('select type from project_events where project_id = $1 and type like $2 order by type', [share.projectId, '%.submitted']);
    expect(events.map((e) => e.type)).toEqual(['form.submitted', 'quote.submitted']);
    expect((await stepRows(server.deps.db, requestId)).events).toMatchObject({ state: 'done', attempts: 1 });
    expect(await query('select job_id from outbox where job_id = $1', [submissionJobId(requestId, 'events')])).toEqual([]);
  });

  it('on the last failed attempt marks the step failed and still hands over to the next step', async () => {
    const share = await createSharedProject(server, owner);
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const broken = { ...pdfStep, run: async () => Promise.reject(new Error('renderer exploded')) };
    // An earlier attempt: the error is kept, the step stays pending, nothing is handed over.
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'pdf', 0), broken)).rejects.toThrow('renderer exploded');
    expect((await stepRows(server.deps.db, requestId)).pdf).toMatchObject({ state: 'pending', last_error: 'renderer exploded' });
    expect(await query('select job_id from outbox where job_id = $1', [submissionJobId(requestId, 'email')])).toEqual([]);
    // The last attempt.
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'pdf', 7), broken)).rejects.toThrow('renderer exploded');
    expect((await stepRows(server.deps.db, requestId)).pdf).toMatchObject({ state: 'failed', attempts: 2, last_error: 'renderer exploded' });
    expect(await query('select job_id from outbox where job_id = $1', [submissionJobId(requestId, 'email')])).toHaveLength(1);
    expect(await query('select job_id from outbox where job_id = $1', [submissionJobId(requestId, 'pdf')])).toEqual([]);
  });

  it('does nothing for a request deleted before its jobs ran', async () => {
    const share = await createSharedProject(server, owner, { projectSettings: { emailAdminAddress: 'owner@shop.example' } });
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const deleted = await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(200);
    // The jobs were already in Redis; a worker takes them and finds nothing to do.
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'pdf'), pdfStep)).rejects.toThrow('deleted');
    await expect(runSubmissionStep(deps, fakeJob(requestId, 'events'), eventsStep)).rejects.toThrow('deleted');
    expect(await query(`select id from project_events where data->>'requestId' = $1 and type = 'form.submitted'`, [requestId])).toEqual([]);
    const requestsDir = path.join(server.env.storageDir, 'workspaces', owner.workspaceId, 'requests');
    expect(await readdir(requestsDir).catch(() => [])).not.toContain(requestId);
    expect(await query('select job_id from outbox where job_id like $1', [`%${requestId}%`])).toEqual([]);
  });
});
