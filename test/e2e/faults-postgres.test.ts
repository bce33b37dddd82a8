import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOwnPostgres, type OwnPostgres } from '../helpers/own-postgres.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import {
  FAULT_RUN_SETTINGS,
  createStackShare,
  startProcessStack,
  type ProcessStack,
  type StackShare,
} from '../helpers/process-stack.js';
import { TEST_SECRETS } from '../helpers/test-env.js';
import { acknowledgedIds, outcomeCounts, recoveryMs, sentBetween, startSteadyLoad } from '../helpers/steady-load.js';
import { expectAllRunning, expectEachMailedOnce, expectOnlyOutcomes } from '../helpers/fault-assertions.js';
import { waitFor } from '../worker/submission-fixtures.js';

/**
 * Postgres restarted under load (issue 23): requests are answered in time (503 with Retry-After when
 * Postgres was needed), and everything works again afterwards without restarting a process.
 */
const TIMEOUT_MS = 10_000;
const DOWN_MS = 6_000;

let postgres: OwnPostgres;
let smtp: SmtpCatcher;
let stack: ProcessStack;
let share: StackShare;
let storageDir: string;

beforeAll(async () => {
  postgres = await startOwnPostgres();
  smtp = await startSmtpCatcher();
  storageDir = await mkdtemp(path.join(tmpdir(), 'cs-faults-pg-'));
  const env = {
    ...TEST_SECRETS,
    ...FAULT_RUN_SETTINGS,
    DATABASE_URL: postgres.databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `cs-faults-pg-${randomBytes(4).toString('hex')}`,
    STORAGE_DIR: storageDir,
    SMTP_URL: smtp.url,
  };
  stack = await startProcessStack({ env });
  share = await createStackShare(stack, env);
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await postgres?.close();
  await smtp?.close();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

it('answers 503 unavailable with Retry-After while Postgres is down, then recovers alone', async () => {
  const json = { ...share.publicHeaders, 'content-type': 'application/json' };
  const load = startSteadyLoad(
    [
      {
        name: 'read',
        url: `${stack.api}${share.readPath}`,
        perSecond: 20,
        init: () => ({ headers: share.publicHeaders }),
      },
      { name: 'bff read', url: `${stack.bffUrl}${share.readPath}`, perSecond: 20 },
      {
        name: 'submit',
        url: `${stack.api}${share.submitPath}`,
        perSecond: 5,
        init: () => ({ method: 'POST', headers: json, body: share.submitBody }),
      },
    ],
    TIMEOUT_MS,
  );
  // Filled as answers come in; read once the load has stopped.
  const samples = load.samples;
  let backAt = 0;
  try {
    await waitFor(async () => acknowledgedIds(load.samples, 'submit').length >= 5, 'submissions before the fault');
    const stoppedAt = Date.now();
    await postgres.stop();
    await new Promise((r) => setTimeout(r, DOWN_MS));
    await postgres.start();
    backAt = Date.now();
    await waitFor(
      async () =>
        recoveryMs(load.samples, 'read', backAt) !== null && recoveryMs(load.samples, 'submit', backAt) !== null,
      'a read and a submission answered 200 after Postgres came back',
      60_000,
    );
    await load.stop();

    const down = [
      ...sentBetween(samples, 'read', stoppedAt, backAt),
      ...sentBetween(samples, 'submit', stoppedAt, backAt),
    ];
    console.log(
      `Postgres down ${backAt - stoppedAt} ms; outcomes ${JSON.stringify(outcomeCounts(samples))}; while down ` +
        `${JSON.stringify(outcomeCounts(down))}; recovery (Postgres back to the first 200): read ` +
        `${recoveryMs(samples, 'read', backAt)} ms, submit ${recoveryMs(samples, 'submit', backAt)} ms, BFF read ` +
        `${recoveryMs(samples, 'bff read', backAt)} ms`,
    );

    expectOnlyOutcomes(samples, [200, 503]);
    // Submissions need Postgres: while it was down they were refused, not acknowledged.
    expect(sentBetween(samples, 'submit', stoppedAt + 500, backAt).some((s) => s.outcome === 503)).toBe(true);
  } finally {
    await load.stop();
  }

  // Every acknowledged submission, before, during and after the outage, reaches the owner exactly once.
  const ids = acknowledgedIds(samples, 'submit');
  const lastMailAt = await expectEachMailedOnce(stack, smtp, ids, {
    databaseUrl: postgres.databaseUrl,
    timeoutMs: 90_000,
  });
  console.log(`Postgres back to the last of ${ids.length} acknowledged requests e-mailed: ${lastMailAt - backAt} ms`);
  expectAllRunning(stack);
}, 240_000);
