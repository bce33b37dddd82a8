import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Queue } from 'bullmq';
import { sql } from 'drizzle-orm';
import { QUEUES } from '#core/jobs/queues.js';
import { createLogger } from '#core/platform/log.js';
import { closeWorkerDeps, createWorkerDeps } from '../../worker/deps.js';
import type { WorkerDeps } from '../../worker/jobs/define-job.js';
import { dispatchOutbox } from '../../worker/outbox-relay.js';
import { startWorker } from '../../worker/app.js';
import { createJobRegistry } from '../../worker/jobs/index.js';
import { defineJob } from '../../worker/jobs/define-job.js';
import type { Queues } from '../../worker/deps.js';
import { createTestEnv, type TestEnv } from '../helpers/test-env.js';
import { waitFor, workerConfig } from './submission-fixtures.js';

/**
 * dispatchOutbox alone: short claims, Redis outside any transaction, only due rows looked at, a lost job added
 * again; and a job BullMQ fails for good given to its type's `failed`.
 */
const HOUR = 3600_000;
/** Job types of this file: none runs here except where a test starts a worker. */
const plain = defineJob({ queue: QUEUES.submissionSteps, name: 'plain', timeoutMs: 1000, process: async () => ({}) });
const JOBS = createJobRegistry([plain], {});

let env: TestEnv;
let deps: WorkerDeps;

beforeAll(async () => {
  env = await createTestEnv();
  deps = createWorkerDeps(workerConfig(env.env), createLogger('silent'), JOBS);
});
afterAll(async () => {
  if (deps) await closeWorkerDeps(deps);
  await env?.cleanup();
});

let counter = 0;
/** Outbox rows of one of this file's job types, with job ids unique to this file. */
async function rows(n: number, name = plain.name): Promise<{ ids: number[]; jobIds: string[] }> {
  const jobIds = Array.from({ length: n }, () => `t_${process.pid}_${++counter}`);
  const ids = await deps.outbox.add(
    deps.db,
    jobIds.map((jobId) => ({ queue: QUEUES.submissionSteps, name, jobId, data: { submissionId: jobId } })),
  );
  return { ids, jobIds };
}

interface OutboxState {
  job_id: string;
  sent: boolean;
  due: boolean;
}

async function outboxState(jobIds: string[]): Promise<OutboxState[]> {
  const { rows: found } = await deps.db.$client.query<OutboxState>(
    `select job_id, last_enqueued_at is not null as sent, next_attempt_at <= now() as due
     from outbox where job_id = any($1) order by id`,
    [jobIds],
  );
  return found;
}

/** Makes rows look enqueued long ago, so the next dispatch looks at them again. */
async function makeStale(jobIds: string[]) {
  await deps.db.$client.query(
    `update outbox set last_enqueued_at = now() - interval '1 hour', next_attempt_at = now() where job_id = any($1)`,
    [jobIds],
  );
}

/** Worker deps whose `submission-steps` producer is replaced by `stub`. */
const withSubmissions = (stub: Partial<Queue>): WorkerDeps => ({
  ...deps,
  queues: { ...deps.queues, [QUEUES.submissionSteps]: stub as Queue } as Queues,
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('dispatchOutbox', () => {
  it('holds no row lock while Redis is slow: a job finishing meanwhile removes its row at once', async () => {
    const { ids, jobIds } = await rows(1);
    const addCalled = deferred();
    const addAnswer = deferred<unknown>();
    const slowRedis = withSubmissions({
      addBulk: (() => {
        addCalled.resolve();
        return addAnswer.promise;
      }) as Queue['addBulk'],
    });
    const dispatching = dispatchOutbox(slowRedis, { ids, resendAfterMs: 60_000, deadlineMs: 20_000 });
    await addCalled.promise;
    // The processor's final transaction: a lock held by the dispatcher would make this fail.
    await deps.db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '2s'`);
      await deps.outbox.complete(tx, jobIds[0]);
    });
    addAnswer.resolve([]);
    expect(await dispatching).toMatchObject({ claimed: 1, sent: 1, failed: 0 });
    expect(await outboxState(jobIds)).toEqual([]);
  });

  it('hands each row to one of two dispatchers running at once, in one addBulk per queue', async () => {
    const { ids, jobIds } = await rows(6);
    const added: string[] = [];
    let calls = 0;
    const counting = withSubmissions({
      addBulk: (async (jobs: Array<{ opts?: { jobId?: string } }>) => {
        calls++;
        await new Promise((r) => setTimeout(r, 20));
        added.push(...jobs.map((job) => job.opts!.jobId!));
        return [];
      }) as unknown as Queue['addBulk'],
    });
    const results = await Promise.all([
      dispatchOutbox(counting, { ids, resendAfterMs: 60_000 }),
      dispatchOutbox(counting, { ids, resendAfterMs: 60_000 }),
    ]);
    expect(results.reduce((sum, r) => sum + r.claimed, 0)).toBe(6);
    expect([...added].sort()).toEqual([...jobIds].sort());
    expect(calls).toBeLessThanOrEqual(2);
    // Handed over: next due only once the resend time has passed.
    expect((await outboxState(jobIds)).every((row) => row.sent && !row.due)).toBe(true);
  });

  it('leaves rows Redis refused or did not take in time for a later attempt, unsent', async () => {
    const refused = await rows(2);
    const refusing = withSubmissions({
      addBulk: (() => Promise.reject(new Error('Connection is closed.'))) as Queue['addBulk'],
    });
    expect(await dispatchOutbox(refusing, { ids: refused.ids, resendAfterMs: 60_000 })).toMatchObject({
      claimed: 2,
      sent: 0,
      failed: 2,
    });
    expect(await outboxState(refused.jobIds)).toEqual(
      refused.jobIds.map((job_id) => ({ job_id, sent: false, due: false })),
    );

    const hung = await rows(1);
    const hanging = withSubmissions({ addBulk: (() => new Promise(() => {})) as Queue['addBulk'] });
    expect(await dispatchOutbox(hanging, { ids: hung.ids, resendAfterMs: 60_000, deadlineMs: 50 })).toMatchObject({
      claimed: 1,
      failed: 1,
    });
    expect(await outboxState(hung.jobIds)).toEqual([{ job_id: hung.jobIds[0], sent: false, due: false }]);
  });

  it('re-adds a lost job and leaves one BullMQ still holds', async () => {
    const [alive, lost] = [await rows(1), await rows(1)];
    // BullMQ still holds this one (waiting: no worker runs here).
    await deps.queues[QUEUES.submissionSteps].add(plain.name, {}, { jobId: alive.jobIds[0] });
    await makeStale([...alive.jobIds, ...lost.jobIds]);
    const result = await dispatchOutbox(deps, { ids: [...alive.ids, ...lost.ids], resendAfterMs: 60_000 });
    expect(result).toMatchObject({ claimed: 2, sent: 1, alive: 1, failed: 0 });
    // Both next due after the resend time.
    expect(await outboxState([...alive.jobIds, ...lost.jobIds])).toEqual([
      { job_id: alive.jobIds[0], sent: true, due: false },
      { job_id: lost.jobIds[0], sent: true, due: false },
    ]);
    expect(await deps.queues[QUEUES.submissionSteps].getJobState(lost.jobIds[0])).toBe('waiting');
  });

  it('leaves a row due later (a retry waiting for its time) alone: no sweep claims it, nor asks BullMQ', async () => {
    const jobId = `t_${process.pid}_later`;
    const ids = await deps.outbox.add(deps.db, [
      { queue: QUEUES.submissionSteps, name: plain.name, jobId, data: {}, dueInMs: 10 * HOUR },
    ]);
    const checkedIn = await hoursUntilDue(jobId);
    expect(checkedIn).toBeGreaterThan(9.9);
    expect(checkedIn).toBeLessThanOrEqual(10);

    const queue = deps.queues[QUEUES.submissionSteps];
    const asked = [vi.spyOn(queue, 'getJobState'), vi.spyOn(queue, 'addBulk')];
    try {
      for (let sweep = 0; sweep < 3; sweep++) expect(await dispatchOutbox(deps, { ids })).toMatchObject({ claimed: 0 });
      for (const spy of asked) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of asked) spy.mockRestore();
    }
    expect(await queue.getJobState(jobId)).toBe('unknown');
  });

  it('gives a job failed for good (not one BullMQ retries) to `failed`; a row it left is added again', async () => {
    const failedRuns: number[] = [];
    let records = true;
    const failing = defineJob({
      queue: QUEUES.submissionSteps,
      name: 'always-fails',
      attempts: 2,
      backoff: { type: 'fixed', delay: 10 },
      timeoutMs: 1000,
      process: async () => Promise.reject(new Error('this job always fails')),
      async failed(job, workerDeps) {
        failedRuns.push(job.attemptsMade);
        if (!records) throw new Error('could not record the failure');
        await workerDeps.outbox.complete(workerDeps.db, job.id!);
      },
    });
    const worker = await startWorker(workerConfig(env.env), {
      log: createLogger('silent'),
      jobs: createJobRegistry([failing], {}),
    });
    const recorded = `t_${process.pid}_recorded`;
    const left = `t_${process.pid}_left`;
    try {
      await deps.outbox.add(deps.db, [
        { queue: QUEUES.submissionSteps, name: failing.name, jobId: recorded, data: {} },
      ]);
      await waitFor(async () => (await outboxState([recorded])).length === 0, 'the failed job to end its row');
      // Once, after the second and last run.
      expect(failedRuns).toEqual([2]);

      records = false;
      await deps.outbox.add(deps.db, [{ queue: QUEUES.submissionSteps, name: failing.name, jobId: left, data: {} }]);
      await waitFor(async () => failedRuns.length === 2, 'the second job to fail for good');
    } finally {
      await worker.close(5000);
    }
    expect(await outboxState([left])).toHaveLength(1);
    const queue = deps.queues[QUEUES.submissionSteps];
    expect(await queue.getJobState(left)).toBe('failed');
    await makeStale([left]);
    expect(await dispatchOutbox({ ...deps, jobs: createJobRegistry([failing], {}) })).toMatchObject({ sent: 1 });
    expect(await queue.getJobState(left)).toBe('waiting');
  });
});

/** Hours until the row's next check. */
async function hoursUntilDue(jobId: string): Promise<number> {
  const { rows: found } = await deps.db.$client.query<{ hours: number }>(
    `select extract(epoch from next_attempt_at - now()) / 3600 as hours from outbox where job_id = $1`,
    [jobId],
  );
  return Number(found[0]?.hours ?? 0);
}
