import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queue } from 'bullmq';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { createDb, type Db } from '../../server/core/platform/db/client.js';
import { addToOutbox, completeOutbox, dispatchOutbox } from '../../server/core/jobs/outbox.js';
import { QUEUES, closeQueues, createQueues, type Queues } from '../../server/core/jobs/queues.js';
import { createRedis } from '../../server/core/platform/redis.js';
import { loadWorkerConfig } from '../../worker/config.js';
import { createTestEnv, type TestEnv } from '../helpers/test-env.js';

/**
 * dispatchOutbox on its own: rows are claimed in one short statement, Redis is talked to outside
 * any transaction, outcomes are recorded afterwards, and a job lost too often is given up.
 */
let env: TestEnv;
let db: Db;
let redis: Redis;
let queues: Queues;

beforeAll(async () => {
  env = await createTestEnv();
  const config = loadWorkerConfig(env.env);
  db = createDb(config.databaseUrl, 6);
  redis = createRedis(config.redisUrl, 'request');
  queues = createQueues(redis, config.queuePrefix);
});
afterAll(async () => {
  await closeQueues(queues);
  redis?.disconnect();
  await db?.$client.end();
  await env?.cleanup();
});

let counter = 0;
/** Outbox rows for the submissions queue, with job ids unique to this file. */
async function rows(n: number): Promise<{ ids: number[]; jobIds: string[] }> {
  const jobIds = Array.from({ length: n }, () => `t_${process.pid}_${++counter}`);
  const ids = await addToOutbox(
    db,
    jobIds.map((jobId) => ({ queue: QUEUES.submissions, name: 'events', jobId, data: { submissionId: jobId } })),
  );
  return { ids, jobIds };
}

interface OutboxState {
  job_id: string;
  enqueue_count: number;
  sent: boolean;
  due: boolean;
}

async function outboxState(jobIds: string[]): Promise<OutboxState[]> {
  const { rows: found } = await db.$client.query<OutboxState>(
    `select job_id, enqueue_count, last_enqueued_at is not null as sent, next_attempt_at <= now() as due
     from outbox where job_id = any($1) order by id`,
    [jobIds],
  );
  return found;
}

/** Makes rows look enqueued long ago (`count` times), so the next dispatch re-sends them. */
async function makeStale(jobIds: string[], count: number) {
  await db.$client.query(`update outbox set enqueue_count = $2, last_enqueued_at = now() - interval '1 hour', next_attempt_at = now() where job_id = any($1)`, [
    jobIds,
    count,
  ]);
}

/** Queues whose `submissions` producer is replaced by `stub` (the claim only takes rows of known queues). */
const withSubmissions = (stub: Partial<Queue>): Queues => ({ ...queues, submissions: stub as Queue });

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
    const dispatching = dispatchOutbox(db, slowRedis, { ids, resendAfterMs: 60_000, deadlineMs: 20_000 });
    await addCalled.promise;
    // The processor's final transaction: a lock held by the dispatcher would make this fail.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '2s'`);
      await completeOutbox(tx, jobIds[0]);
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
      dispatchOutbox(db, counting, { ids, resendAfterMs: 60_000 }),
      dispatchOutbox(db, counting, { ids, resendAfterMs: 60_000 }),
    ]);
    expect(results.reduce((sum, r) => sum + r.claimed, 0)).toBe(6);
    expect([...added].sort()).toEqual([...jobIds].sort());
    expect(calls).toBeLessThanOrEqual(2);
    expect((await outboxState(jobIds)).every((row) => row.sent && row.enqueue_count === 1 && row.due)).toBe(true);
  });

  it('leaves rows Redis refused or did not take in time for a later attempt, unsent', async () => {
    const refused = await rows(2);
    const refusing = withSubmissions({ addBulk: (() => Promise.reject(new Error('Connection is closed.'))) as Queue['addBulk'] });
    expect(await dispatchOutbox(db, refusing, { ids: refused.ids, resendAfterMs: 60_000 })).toMatchObject({ claimed: 2, sent: 0, failed: 2 });
    expect(await outboxState(refused.jobIds)).toEqual(refused.jobIds.map((job_id) => ({ job_id, enqueue_count: 0, sent: false, due: false })));

    const hung = await rows(1);
    const hanging = withSubmissions({ addBulk: (() => new Promise(() => {})) as Queue['addBulk'] });
    expect(await dispatchOutbox(db, hanging, { ids: hung.ids, resendAfterMs: 60_000, deadlineMs: 50 })).toMatchObject({ claimed: 1, failed: 1 });
    expect(await outboxState(hung.jobIds)).toEqual([{ job_id: hung.jobIds[0], enqueue_count: 0, sent: false, due: false }]);
  });

  it('re-adds a lost job, leaves a job BullMQ still holds alone, and gives up one lost too often', async () => {
    const [alive, lost, poisoned] = [await rows(1), await rows(1), await rows(1)];
    // BullMQ still holds this one (waiting: no worker runs in this file).
    await queues.submissions.add('events', {}, { jobId: alive.jobIds[0] });
    await makeStale(alive.jobIds, 5);
    await makeStale(lost.jobIds, 4);
    await makeStale(poisoned.jobIds, 5);
    const givenUp: string[] = [];
    const result = await dispatchOutbox(db, queues, {
      ids: [...alive.ids, ...lost.ids, ...poisoned.ids],
      resendAfterMs: 60_000,
      onGiveUp: async (tx, row) => {
        // Inside the transaction that deletes the row.
        const { rows: locked } = await tx.execute<{ job_id: string }>(sql`select job_id from outbox where id = ${row.id}`);
        givenUp.push(locked[0].job_id);
      },
    });
    expect(result).toMatchObject({ claimed: 3, sent: 1, alive: 1, gaveUp: 1, failed: 0 });
    expect(givenUp).toEqual(poisoned.jobIds);
    const state = await outboxState([...alive.jobIds, ...lost.jobIds, ...poisoned.jobIds]);
    expect(state).toEqual([
      // Looked at again, not counted as a hand-over.
      { job_id: alive.jobIds[0], enqueue_count: 5, sent: true, due: true },
      { job_id: lost.jobIds[0], enqueue_count: 5, sent: true, due: true },
    ]);
    expect(await queues.submissions.getJobState(lost.jobIds[0])).toBe('waiting');
    expect(await queues.submissions.getJobState(poisoned.jobIds[0])).toBe('unknown');
  });

  it('keeps re-adding without onGiveUp, and keeps the row when onGiveUp fails', async () => {
    const plain = await rows(1);
    await makeStale(plain.jobIds, 9);
    expect(await dispatchOutbox(db, queues, { ids: plain.ids, resendAfterMs: 60_000 })).toMatchObject({ sent: 1 });
    expect(await outboxState(plain.jobIds)).toMatchObject([{ enqueue_count: 10 }]);

    const broken = await rows(1);
    await makeStale(broken.jobIds, 5);
    const failing = dispatchOutbox(db, queues, {
      ids: broken.ids,
      resendAfterMs: 60_000,
      onGiveUp: async (tx) => {
        await tx.execute(sql`delete from outbox where id = ${broken.ids[0]}`);
        throw new Error('could not record the failure');
      },
    });
    await expect(failing).rejects.toThrow('giving up a row failed');
    // Rolled back: the row is still there, due again shortly.
    expect(await outboxState(broken.jobIds)).toEqual([{ job_id: broken.jobIds[0], enqueue_count: 5, sent: true, due: false }]);
  });
});
