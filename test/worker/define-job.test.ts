import { describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { QUEUES } from '../../server/core/jobs/queues.js';
import { TimeoutError } from '../../server/core/platform/deadline.js';
import { defineJob, jobOptions, runJob } from '../../worker/jobs/define-job.js';
import type { WorkerDeps } from '../../worker/jobs/define-job.js';

/** What a job type declares is what BullMQ gets and what a run is held to. */
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

  it('hand BullMQ their attempts and backoff with the job id', () => {
    const type = defineJob({
      queue: QUEUES.submissionSteps,
      name: 'declared',
      attempts: 3,
      backoff: { type: 'exponential', delay: 500 },
      timeoutMs: 1000,
      process: async () => ({}),
    });
    expect(jobOptions(type, 'job-1')).toEqual({
      jobId: 'job-1',
      attempts: 3,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: 100,
      removeOnFail: 100,
    });
  });
});
