import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Job } from 'bullmq';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { pdfText } from '../helpers/pdf-text.js';
import { PRICED_STOOL } from '../helpers/priced-stool.js';
import { closeWorkerDeps, createWorkerDeps } from '../../worker/deps.js';
import type { WorkerDeps } from '../../worker/jobs/define-job.js';
import { JOBS } from '../../worker/jobs/index.js';
import { createLogger } from '#core/platform/log.js';
import { runSubmissionStep, type SubmissionJobData } from '../../worker/submission-step.js';
import { submissionScreenshots as screenshotsStep } from '../../worker/jobs/submission-screenshots.js';
import { submissionPdf as pdfStep } from '../../worker/jobs/submission-pdf.js';
import { submissionCustomerCopy as copyStep } from '../../worker/jobs/submission-customer-copy.js';
import { submissionJobId } from '#core/jobs/queues.js';
import type { WorkerApp } from '../../worker/app.js';
import {
  createSharedProject,
  startTestWorker,
  stepRows,
  submit,
  waitFor,
  waitForSteps,
  workerConfig,
} from './submission-fixtures.js';

/**
 * What the merchant and the visitor receive over real SMTP: the owner's e-mail and the visitor's copy,
 * with the options in block order and their prices, the copy sent once per request and only when asked.
 */
let server: TestServer;
let owner: TestPerson;
let smtp: SmtpCatcher;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  server = await startTestServer({ SMTP_URL: smtp.url, RATE_LIMIT_SUBMIT: '1000/1m' });
  owner = await server.person('owner@copy.test');
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** The priced stool, the older top-level currency contradicting pricing.currency (which wins). */
const stool = (projectSettings: Record<string, unknown> = {}, formFields: unknown[] = PRICED_STOOL.formFields) => ({
  name: 'Stool',
  formFields,
  optionBlocks: PRICED_STOOL.optionBlocks,
  pricingBlocks: PRICED_STOOL.pricingBlocks,
  sceneData: { pricingFormula: PRICED_STOOL.pricingFormula },
  projectSettings: {
    ...PRICED_STOOL.projectSettings,
    currency: 'USD',
    branding: { companyName: 'Stool & Co.' },
    ...projectSettings,
  },
});

const body = (formData: Record<string, unknown> = {}) => ({
  formData: { name: 'Ada Lovelace', email: 'ada@example.com', quantity: 1, ...formData },
  // Not in block order: the mails and the PDF follow the blocks.
  selectedOptions: { legs: 'brass', seat: 'oak' },
  configurationSummary: 'Oak seat on brass legs',
});

const mailsOf = (requestId: string) => smtp.messages.filter((m) => m.messageId.includes(`request-${requestId}`));
const ownerMailId = (requestId: string) => `<request-${requestId}@config-share>`;
const copyId = (requestId: string) => `<request-${requestId}-copy@config-share>`;

async function readRequest(projectId: string, requestId: string) {
  const res = await fetch(`${server.url}/projects/${projectId}/requests/${requestId}`, { headers: owner.headers });
  expect(res.status).toBe(200);
  return (await res.json()).request;
}

describe('with a worker', () => {
  let worker: WorkerApp;
  beforeAll(async () => {
    worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url });
  });
  afterAll(() => worker?.close(5000));

  it('e-mails the owner and sends the visitor one copy, with the PDF, replies going to the owner', async () => {
    const share = await createSharedProject(server, owner, stool({ notifications: { customerCopy: true } }));
    const { requestId } = await (await submit(server.url, share, body())).json();
    const steps = await waitForSteps(server.deps.db, requestId);
    expect(steps.customerCopy).toMatchObject({ state: 'done', attempts: 1, last_error: null });
    expect(steps.email).toMatchObject({ state: 'done', attempts: 1 });
    const mails = await waitFor(async () => (mailsOf(requestId).length === 2 ? mailsOf(requestId) : null), 'two mails');

    const ownerMail = mails.find((m) => m.messageId === ownerMailId(requestId))!;
    expect(ownerMail.to).toEqual(['sales@stool.example']);
    // Block order, each option with its delta in pricing.currency, in the text and the HTML.
    expect(ownerMail.text).toContain('Selected options:\n  Seat: Oak\n  Legs: Brass  +€25.00');
    expect(ownerMail.text).toContain('Total: €174.00');
    expect(ownerMail.html).toMatch(/Seat<\/td>[^]*Oak<\/td>[^]*Legs<\/td>[^]*Brass<\/td>[^]*\+€25\.00<\/td>/);
    expect(ownerMail.html).toContain('€174.00');
    expect(`${ownerMail.text}${ownerMail.html}`).not.toMatch(/\$|\(25\)/);

    const copy = mails.find((m) => m.messageId === copyId(requestId))!;
    expect(copy.to).toEqual(['ada@example.com']);
    expect(copy.headers.get('reply-to')).toBe('sales@stool.example');
    expect(copy.subject).toBe('We received your request - Stool & Co.');
    expect(copy.text).toContain('We received your request\n\nThank you for your request for "Stool"');
    expect(copy.text).toContain('Legs: Brass  +€25.00');
    expect(copy.text).toContain('Base price: €149.00');
    expect(copy.text).toContain('Includes VAT (19%): €27.78');
    expect(copy.text).toContain('Oak seat on brass legs');
    expect(copy.html).toContain('+€25.00');

    // The same PDF the owner gets: the merchant's name, the options, the totals.
    const [{ pdf_key: pdfKey }] = (
      await server.deps.db.$client.query('select pdf_key from submissions where id = $1', [requestId])
    ).rows;
    const pdf = await readFile(path.join(server.env.storageDir, pdfKey));
    expect(copy.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`request-${requestId}.pdf`, 'application/pdf'],
    ]);
    expect(copy.attachments[0].content).toEqual(pdf);
    const text = await pdfText(pdf);
    for (const expected of ['Stool & Co.', 'Quote request', requestId, 'Ada Lovelace', '+€25.00', '€174.00'])
      expect(text).toContain(expected);
    expect(text).toMatch(/Seat\s*Oak\s*Legs\s*Brass\s*\+€25\.00/);

    const request = await readRequest(share.projectId, requestId);
    expect(request.steps.customerCopy).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('sends no copy without the setting, nor without an address in the first e-mail field', async () => {
    const off = await createSharedProject(server, owner, stool());
    const noEmailField = await createSharedProject(
      server,
      owner,
      stool({ notifications: { customerCopy: true } }, [{ id: 'name', label: 'Name', type: 'text' }]),
    );
    const optionalEmail = await createSharedProject(
      server,
      owner,
      stool({ notifications: { customerCopy: true } }, [
        { id: 'name', label: 'Name', type: 'text' },
        { id: 'email', label: 'E-mail', type: 'email' },
      ]),
    );
    const ids: Array<[{ projectId: string }, string]> = [];
    for (const [share, formData] of [
      [off, {}],
      [noEmailField, { email: undefined }],
      [optionalEmail, { email: '' }],
    ] as const) {
      const { requestId } = await (await submit(server.url, share, body(formData))).json();
      ids.push([share, requestId]);
    }
    for (const [share, requestId] of ids) {
      const steps = await waitForSteps(server.deps.db, requestId);
      // The request has no such step at all: nothing to wait for, nothing to show.
      expect(Object.keys(steps).sort()).toEqual(['email', 'events', 'pdf', 'screenshots']);
      expect((await readRequest(share.projectId, requestId)).steps).not.toHaveProperty('customerCopy');
      await waitFor(async () => mailsOf(requestId).length > 0, 'the owner mail');
      expect(mailsOf(requestId).map((m) => m.messageId)).toEqual([ownerMailId(requestId)]);
    }
  });
});

describe('the copy step', () => {
  let deps: WorkerDeps;
  beforeAll(() => {
    deps = createWorkerDeps(workerConfig(server.env.env, { SMTP_URL: smtp.url }), createLogger('silent'), JOBS);
  });
  afterAll(() => closeWorkerDeps(deps));

  const job = (submissionId: string, step: string, attemptsMade: number) =>
    ({
      id: submissionJobId(submissionId, step as never),
      name: step,
      data: { submissionId },
      attemptsMade,
      opts: { attempts: 8 },
    }) as unknown as Job<SubmissionJobData>;

  it('retries a refused send and delivers once; a redelivered job sends nothing again', async () => {
    const share = await createSharedProject(server, owner, stool({ notifications: { customerCopy: true } }));
    const { requestId } = await (await submit(server.url, share, body())).json();
    await runSubmissionStep(deps, job(requestId, 'screenshots', 0), screenshotsStep);
    await runSubmissionStep(deps, job(requestId, 'pdf', 0), pdfStep);
    // The pdf step handed over to both mails.
    const queued = await server.deps.db.$client.query('select job_id from outbox where job_id = any($1)', [
      [submissionJobId(requestId, 'email'), submissionJobId(requestId, 'customerCopy')],
    ]);
    expect(queued.rows).toHaveLength(2);

    const held = smtp.holdNext();
    const first = runSubmissionStep(deps, job(requestId, 'customerCopy', 0), copyStep);
    await held.received;
    held.release(false);
    await expect(first).rejects.toThrow('try again later');
    expect((await stepRows(server.deps.db, requestId)).customerCopy).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_error: expect.stringContaining('try again later'),
    });
    expect(mailsOf(requestId)).toEqual([]);

    expect(await runSubmissionStep(deps, job(requestId, 'customerCopy', 1), copyStep)).toMatchObject({ done: true });
    expect(await runSubmissionStep(deps, job(requestId, 'customerCopy', 2), copyStep)).toMatchObject({
      skipped: 'done',
    });
    expect(mailsOf(requestId).map((m) => m.messageId)).toEqual([copyId(requestId)]);
    expect((await stepRows(server.deps.db, requestId)).customerCopy).toMatchObject({ state: 'done', attempts: 2 });
  });
});
