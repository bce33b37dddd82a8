import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '#core/jobs/queues.js';
import { createLogger } from '#core/platform/log.js';
import { defineJob } from '../../worker/jobs/define-job.js';
import { createJobRegistry } from '../../worker/jobs/index.js';
import { startWorker } from '../../worker/app.js';
import { createTestEnv, type TestEnv } from '../helpers/test-env.js';
import { waitFor, workerConfig } from './submission-fixtures.js';

/**
 * SIGTERM on a worker: a job that does not finish in SHUTDOWN_TIMEOUT_MS goes back to the queue with no
 * attempt spent, so another worker takes it at once instead of waiting for its lock to expire.
 */
let env: TestEnv;
let runs = 0;
const started: Array<() => void> = [];

/** Its first run waits for its signal (a job still running at shutdown); later runs finish at once. */
const longJob = defineJob({
  queue: QUEUES.health,
  name: 'long',
  attempts: 1,
  timeoutMs: 60_000,
  async process(_job, { signal }) {
    runs++;
    started.shift()?.();
    if (runs === 1)
      await new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
    return { run: runs, pid: process.pid };
  },
});
const jobs = createJobRegistry([longJob], { [QUEUES.health]: { concurrency: 1 } });

beforeAll(async () => {
  env = await createTestEnv({ WORKER_LOCK_DURATION_MS: '60000' });
});
afterAll(() => env.cleanup());

describe('a worker shutting down', () => {
  it('hands a job still running at the deadline back to the queue, where the next worker finishes it', async () => {
    const log = createLogger('silent');
    const first = await startWorker(workerConfig(env.env, { WORKER_LOCK_DURATION_MS: '60000' }), {
      log,
      jobs,
      relay: false,
    });
    const running = new Promise<void>((resolve) => started.push(resolve));
    const queue = first.deps.queues[QUEUES.health];
    await queue.add('long', {}, { jobId: 'long-1', attempts: 1 });
    await running;

    const graceful = await first.close(2500);
    expect(graceful).toBe(false);

    // Back in the queue, not failed, no attempt spent (a lock expiry would take 60 s here).
    const second = await startWorker(workerConfig(env.env, { WORKER_LOCK_DURATION_MS: '60000' }), {
      log,
      jobs,
      relay: false,
    });
    try {
      const job = await waitFor(
        async () => {
          const found = await second.deps.queues[QUEUES.health].getJob('long-1');
          return found?.finishedOn ? found : null;
        },
        'the handed-back job to complete',
        15_000,
      );
      expect(job.returnvalue).toEqual({ run: 2, pid: process.pid });
      expect(await job.getState()).toBe('completed');
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason ?? '').toBe('');
    } finally {
      await second.close(2000);
    }
  }, 40_000);
});
