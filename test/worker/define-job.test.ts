import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { QUEUES } from '#core/jobs/queues.js';
import { TimeoutError } from '#core/platform/deadline.js';
import { defineJob, jobOptions, runJob } from '../../worker/jobs/define-job.js';
import type { WorkerDeps } from '../../worker/jobs/define-job.js';
import { waitFor } from './submission-fixtures.js';

/** What a job type declares is what BullMQ does with its jobs (a real queue on Redis) and what a run is held to. */
const deps = {} as WorkerDeps;
const job = { name: 'slow', data: {} } as Job;

describe('job types', () => {
  it('fail a run past their timeout and abort its signal, so the processor can stop', async () => {
    let signal: AbortSignal | undefined;
    const slow = defineJob({
      queue: QUEUES.health,
      name: 'slow',
      timeoutMs: 20,
      process: (_job, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const failure = await runJob(slow, job, deps).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TimeoutError);
    expect((failure as Error).message).toBe('health/slow: the run took longer than 20 ms');
    expect(signal?.aborted).toBe(true);
  });

  it("stop when BullMQ cancels the job, and return the processor's result otherwise", async () => {
    const quick = defineJob({ queue: QUEUES.health, name: 'quick', timeoutMs: 1000, process: async () => 'done' });
    expect(await runJob(quick, job, deps)).toBe('done');
    const cancel = new AbortController();
    const hanging = defineJob({
      queue: QUEUES.health,
      name: 'hanging',
      timeoutMs: 60_000,
      process: () => new Promise(() => {}),
    });
    const running = runJob(hanging, job, deps, cancel.signal);
    cancel.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
  });

  it('are retried as declared: after the backoff, past a timeout, up to the attempts; kept as declared', async () => {
    const connection = { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null };
    const prefix = `cs-define-job-${randomBytes(4).toString('hex')}`;
    const queue = new Queue(QUEUES.submissionSteps, { connection, prefix });
    const runs = new Map<string, number[]>();
    const ran = (job: Job) => {
      runs.set(job.id!, [...(runs.get(job.id!) ?? []), Date.now()]);
      return runs.get(job.id!)!.length;
    };
    const types = [
      defineJob({
        queue: QUEUES.submissionSteps,
        name: 'flaky',
        attempts: 3,
        backoff: { type: 'fixed', delay: 400 },
        timeoutMs: 5000,
        process: async (job) => {
          if (ran(job) === 1) throw new Error('first run fails');
          return 'done';
        },
      }),
      defineJob({
        queue: QUEUES.submissionSteps,
        name: 'doomed',
        attempts: 2,
        timeoutMs: 5000,
        process: async (job) => {
          ran(job);
          throw new Error('always fails');
        },
      }),
      defineJob({
        queue: QUEUES.submissionSteps,
        name: 'slow',
        attempts: 2,
        timeoutMs: 100,
        process: (job, { signal }) =>
          ran(job) === 1 ? new Promise((_, reject) => signal.addEventListener('abort', reject)) : Promise.resolve(1),
      }),
      defineJob({
        queue: QUEUES.submissionSteps,
        name: 'forgotten',
        removeOnComplete: true,
        timeoutMs: 5000,
        process: async (job) => ran(job),
      }),
    ];
    const worker = new Worker(
      QUEUES.submissionSteps,
      (job, token, signal) =>
        runJob(
          types.find((type) => type.name === job.name)!,
          job,
          deps,
          signal,
          token,
        ),
      { connection, prefix },
    );
    const completed = new Set<string>();
    worker.on('completed', (job) => completed.add(job.id!));
    const finished = (id: string) =>
      waitFor(async () => {
        const state = completed.has(id) ? 'completed' : await queue.getJobState(id);
        return state === 'completed' || state === 'failed' ? state : null;
      }, `job ${id} to finish`);
    try {
      for (const type of types) await queue.add(type.name, {}, jobOptions(type, `${type.name}-1`));

      expect(await finished('flaky-1')).toBe('completed');
      const [first, second] = runs.get('flaky-1')!;
      expect(second - first).toBeGreaterThanOrEqual(400);
      expect(await finished('slow-1')).toBe('completed');
      expect(runs.get('slow-1')).toHaveLength(2);
      expect(await finished('doomed-1')).toBe('failed');
      expect(runs.get('doomed-1')).toHaveLength(2);
      expect(await queue.getJob('doomed-1')).toMatchObject({ attemptsMade: 2, failedReason: 'always fails' });
      // Kept by default, gone when the type says so.
      expect(await queue.getJob('flaky-1')).toMatchObject({ returnvalue: 'done', attemptsMade: 2 });
      expect(await finished('forgotten-1')).toBe('completed');
      expect(await queue.getJob('forgotten-1')).toBeUndefined();
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
