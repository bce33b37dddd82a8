import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import {
  FAULT_RUN_SETTINGS,
  createStackShare,
  startProcessStack,
  type ProcessStack,
  type StackShare,
} from '../helpers/process-stack.js';
import { createTestEnv, type TestEnv } from '../helpers/test-env.js';
import { outcomeCounts, recoveryMs, sentBetween, startSteadyLoad, type SteadyLoad } from '../helpers/steady-load.js';
import { expectOnlyOutcomes } from '../helpers/fault-assertions.js';
import { waitFor } from '../worker/submission-fixtures.js';

/**
 * The server killed under load (issue 23): the BFF still answers the reads it keeps, even stale, and 503
 * `unavailable` for the rest; once the server is back, reads pass through again.
 */
const TIMEOUT_MS = 10_000;
/** Longer than the BFF's freshness (BFF_CACHE_TTL_MS, 5 s): kept answers go stale while the server is gone. */
const DOWN_MS = 8_000;

let smtp: SmtpCatcher;
let env: TestEnv;
let stack: ProcessStack;
let kept: StackShare;
let unread: StackShare;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  env = await createTestEnv({ ...FAULT_RUN_SETTINGS, SMTP_URL: smtp.url });
  stack = await startProcessStack({ env: env.env });
  kept = await createStackShare(stack, env.env);
  unread = await createStackShare(stack, env.env);
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await smtp?.close();
  await env?.cleanup();
});

it('answers kept reads and 503 for the rest while the server is down, then passes through again', async () => {
  const first = await fetch(`${stack.bffUrl}${kept.readPath}`);
  expect(first.status).toBe(200);
  const etag = first.headers.get('etag')!;
  const load = startSteadyLoad(
    [
      { name: 'kept read', url: `${stack.bffUrl}${kept.readPath}`, perSecond: 20 },
      {
        name: 'kept 304',
        url: `${stack.bffUrl}${kept.readPath}`,
        perSecond: 10,
        init: () => ({ headers: { 'if-none-match': etag } }),
      },
      {
        name: 'submit',
        url: `${stack.bffUrl}${kept.submitPath}`,
        perSecond: 2,
        init: () => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: kept.submitBody }),
      },
    ],
    TIMEOUT_MS,
  );
  let unreadLoad: SteadyLoad | undefined;
  try {
    await waitFor(async () => load.samples.filter((s) => s.outcome === 200).length >= 20, 'reads before the fault');
    await stack.server.kill();
    const killedAt = Date.now();
    // A share the BFF has never read: nothing kept to answer with.
    unreadLoad = startSteadyLoad(
      [{ name: 'unread read', url: `${stack.bffUrl}${unread.readPath}`, perSecond: 5 }],
      TIMEOUT_MS,
    );
    await new Promise((r) => setTimeout(r, DOWN_MS));
    const restartAt = Date.now();
    await stack.server.start();
    const backAt = Date.now();
    // Back: a read the BFF never kept and a submission pass through again.
    await waitFor(
      async () =>
        recoveryMs(unreadLoad!.samples, 'unread read', backAt) !== null &&
        recoveryMs(load.samples, 'submit', backAt) !== null,
      'a read the BFF never kept and a submission answered 200 after the server came back',
      30_000,
    );
    await Promise.all([load.stop(), unreadLoad.stop()]);
    const samples = [...load.samples, ...unreadLoad.samples];

    const streams = ['kept read', 'kept 304', 'unread read', 'submit'];
    const down = streams.flatMap((stream) => sentBetween(samples, stream, killedAt, restartAt));
    console.log(
      `server down ${restartAt - killedAt} ms (back, /health 200, ${backAt - restartAt} ms after its restart); ` +
        `outcomes ${JSON.stringify(outcomeCounts(samples))}; while down ${JSON.stringify(outcomeCounts(down))}; ` +
        'recovery (server back to the first 200): a read it never kept ' +
        `${recoveryMs(samples, 'unread read', backAt)} ms, ` +
        `a submission ${recoveryMs(samples, 'submit', backAt)} ms`,
    );
    expectOnlyOutcomes(samples, [200, 304, 503]);
    // While the server was gone: the kept answer, stale or not, and refusals for everything else.
    const outcomesWhileDown = (stream: string) => [
      ...new Set(sentBetween(samples, stream, killedAt, restartAt).map((s) => s.outcome)),
    ];
    expect(outcomesWhileDown('kept read')).toEqual([200]);
    expect(outcomesWhileDown('kept 304')).toEqual([304]);
    expect(outcomesWhileDown('unread read')).toEqual([503]);
    expect(outcomesWhileDown('submit')).toEqual([503]);
  } finally {
    await Promise.all([load.stop(), unreadLoad?.stop()]);
  }
}, 240_000);
