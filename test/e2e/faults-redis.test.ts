import { afterAll, beforeAll, it } from 'vitest';
import { startOwnRedis, type OwnRedis } from '../helpers/own-redis.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import {
  FAULT_RUN_SETTINGS,
  createStackShare,
  startProcessStack,
  type ProcessStack,
  type StackShare,
} from '../helpers/process-stack.js';
import { createTestEnv, type TestEnv } from '../helpers/test-env.js';
import { acknowledgedIds, outcomeCounts, recoveryMs, sentBetween, startSteadyLoad } from '../helpers/steady-load.js';
import { expectAllRunning, expectEachMailedOnce, expectOnlyOutcomes } from '../helpers/fault-assertions.js';
import { waitFor } from '../worker/submission-fixtures.js';

/**
 * Redis restarted empty under load (issue 23): reads work or are refused cleanly (503, never a hang or
 * 500), and the outbox hands every acknowledged submission to the new Redis, each e-mailed once.
 */
const TIMEOUT_MS = 10_000;
const DOWN_MS = 6_000;

let redis: OwnRedis;
let smtp: SmtpCatcher;
let env: TestEnv;
let stack: ProcessStack;
let share: StackShare;

beforeAll(async () => {
  redis = await startOwnRedis();
  smtp = await startSmtpCatcher();
  env = await createTestEnv({ ...FAULT_RUN_SETTINGS, REDIS_URL: redis.url, SMTP_URL: smtp.url });
  stack = await startProcessStack({ env: env.env });
  share = await createStackShare(stack, env.env);
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await redis?.close();
  await smtp?.close();
  await env?.cleanup();
});

it('keeps answering reads and loses no acknowledged submission when Redis restarts', async () => {
  const json = { 'content-type': 'application/json' };
  const load = startSteadyLoad(
    [
      { name: 'bff read', url: `${stack.bffUrl}${share.readPath}`, perSecond: 20 },
      {
        name: 'read',
        url: `${stack.api}${share.readPath}`,
        perSecond: 10,
        init: () => ({ headers: share.publicHeaders }),
      },
      {
        name: 'submit',
        url: `${stack.bffUrl}${share.submitPath}`,
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
    await redis.stop();
    await new Promise((r) => setTimeout(r, DOWN_MS));
    await redis.start();
    backAt = Date.now();
    await waitFor(
      async () => ['bff read', 'read', 'submit'].every((stream) => recoveryMs(load.samples, stream, backAt) !== null),
      'reads and a submission answered 200 after Redis came back',
      60_000,
    );
    await load.stop();

    const down = ['bff read', 'read', 'submit'].flatMap((stream) => sentBetween(samples, stream, stoppedAt, backAt));
    console.log(
      `Redis down ${backAt - stoppedAt} ms; outcomes ${JSON.stringify(outcomeCounts(samples))}; while down ` +
        `${JSON.stringify(outcomeCounts(down))}; recovery (Redis back to the first 200): BFF read ` +
        `${recoveryMs(samples, 'bff read', backAt)} ms, read ${recoveryMs(samples, 'read', backAt)} ms, submit ` +
        `${recoveryMs(samples, 'submit', backAt)} ms`,
    );
    expectOnlyOutcomes(samples, [200, 503]);
  } finally {
    await load.stop();
  }

  // Acknowledged while Redis was gone, or before it lost its queues: each reaches the owner once.
  const ids = acknowledgedIds(samples, 'submit');
  const lastMailAt = await expectEachMailedOnce(stack, smtp, ids, { databaseUrl: env.databaseUrl, timeoutMs: 120_000 });
  console.log(`Redis back to the last of ${ids.length} acknowledged requests e-mailed: ${lastMailAt - backAt} ms`);
  expectAllRunning(stack);
}, 300_000);
