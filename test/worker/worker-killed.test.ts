import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { startTsProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import {
  createSharedProject,
  dataUrl,
  png,
  stepRows,
  submit,
  validBody,
  waitForSteps,
  workerEnv,
} from './submission-fixtures.js';

/**
 * A worker SIGKILLed while the SMTP server holds its DATA answer: once another worker takes the lost
 * job, the e-mail arrives exactly once and every step is done once.
 */
let server: TestServer;
let owner: TestPerson;
let smtp: SmtpCatcher;
const children: ChildProcessHandle[] = [];

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  server = await startTestServer({ SMTP_URL: smtp.url });
  owner = await server.person('owner@worker-killed.test');
});
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  await server?.close();
  await smtp?.close();
});

async function startWorkerProcess() {
  const child = startTsProcess('worker/main.ts', workerEnv(server.env.env, { SMTP_URL: smtp.url, LOG_LEVEL: 'info' }));
  children.push(child);
  await child.waitForOutput(/"msg":"worker ready"/);
  return child;
}

describe('a worker killed mid-step', () => {
  it(
    'loses nothing and repeats nothing: the e-mail arrives once, every step is done once',
    { timeout: 90_000 },
    async () => {
      const share = await createSharedProject(server, owner, {
        pricingBlocks: [{ id: 'base' }],
        projectSettings: { emailAdminAddress: 'owner@shop.example' },
      });
      const held = smtp.holdNext();
      const first = await startWorkerProcess();
      const { requestId } = await (
        await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', png())] }))
      ).json();

      await held.received;
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      // The connection died before the 250: that message was never delivered.
      await held.dropped;
      expect(smtp.messages).toHaveLength(0);
      expect((await stepRows(server.deps.db, requestId)).email).toMatchObject({ state: 'pending', attempts: 1 });

      await startWorkerProcess();
      const steps = await waitForSteps(server.deps.db, requestId, 60_000);
      expect(Object.values(steps).map((s) => s.state)).toEqual(['done', 'done', 'done', 'done']);
      expect(steps.email.attempts).toBe(2);
      for (const step of ['screenshots', 'pdf', 'events']) expect(steps[step].attempts).toBe(1);

      await smtp.waitForMessages(1);
      expect(smtp.messages.map((m) => m.messageId)).toEqual([`<request-${requestId}@config-share>`]);
      expect(smtp.messages[0].attachments.map((a) => a.contentType)).toContain('application/pdf');
      const { rows: events } = await server.deps.db.$client.query(
        'select type from project_events where project_id = $1 and type like $2 order by type',
        [share.projectId, '%.submitted'],
      );
      expect(events.map((e) => e.type)).toEqual(['form.submitted', 'quote.submitted']);
      const { rows: outbox } = await server.deps.db.$client.query('select job_id from outbox where job_id like $1', [
        `%${requestId}%`,
      ]);
      expect(outbox).toEqual([]);
    },
  );
});
