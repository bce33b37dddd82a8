import { expect } from 'vitest';
import { unexpectedOutcomes, type LoadSample } from './steady-load.js';
import { mailsByRequest, waitForMails, waitForStepsDone } from './mails-by-request.js';
import type { ProcessStack } from './process-stack.js';
import type { SmtpCatcher } from './smtp-catcher.js';

/** What the fault tests assert after a fault under load. */

/** Every answer is one of `allowed` (no hang, dropped connection or 500), and each 503 says why and when to retry. */
export function expectOnlyOutcomes(samples: LoadSample[], allowed: number[]) {
  expect(unexpectedOutcomes(samples, allowed)).toEqual([]);
  for (const refused of samples.filter((s) => s.outcome === 503)) {
    expect(refused.body?.error).toBe('unavailable');
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  }
}

/** Each acknowledged request e-mailed exactly once, counted once every step is done; answers when the last came. */
export async function expectEachMailedOnce(
  stack: ProcessStack,
  smtp: SmtpCatcher,
  ids: string[],
  options: { databaseUrl: string; timeoutMs: number },
): Promise<number> {
  await waitForMails(smtp, ids, options.timeoutMs).catch((error: Error) => {
    throw new Error(`${error.message}\n${stack.output()}`);
  });
  const lastMailAt = Date.now();
  await waitForStepsDone(options.databaseUrl, options.timeoutMs);
  const mails = mailsByRequest(smtp);
  expect(ids.filter((id) => mails.get(id) !== 1)).toEqual([]);
  return lastMailAt;
}

/** Recovered alone: no process of the stack died on the way. */
export function expectAllRunning(stack: ProcessStack) {
  const exitCodes = [stack.server, stack.worker, stack.bff].map((part) => part.current()!.child.exitCode);
  expect(exitCodes).toEqual([null, null, null]);
}
