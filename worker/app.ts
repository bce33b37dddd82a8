import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { WorkerConfig } from './config.js';
import type { QueueName } from '../server/core/jobs/queues.js';
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from './deps.js';
import { createLogger, type Logger } from '../server/core/platform/log.js';
import { settlesWithin } from '../server/core/platform/deadline.js';
import { startOutboxRelay, type OutboxRelay } from './relay.js';
import { postponeOutboxCheck } from './dispatch-outbox.js';
import { JOBS, familyOptions, type JobRegistry } from './jobs/index.js';
import { UnknownJobError, runJob } from './jobs/define-job.js';

export interface WorkerApp {
  deps: WorkerDeps;
  workers: Worker[];
  relay: OutboxRelay | null;
  /**
   * Stops taking jobs, lets the active ones finish for up to `timeoutMs` (then abandons them:
   * BullMQ hands them to another worker once their lock expires), and closes every connection.
   * Resolves true when everything finished in time.
   */
  close(timeoutMs?: number): Promise<boolean>;
}

export interface StartWorkerOptions {
  log?: Logger;
  /** Run the outbox relay in this process (default true). */
  relay?: boolean;
  /** The job types to run (default every job type of the product, worker/jobs/index.ts). */
  jobs?: JobRegistry;
}

/** Default time active jobs get to finish on shutdown. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

/** Whether BullMQ runs this failed job again (it has just recorded the failure). */
const willRetry = (job: Job, error: Error) => !(error instanceof UnrecoverableError) && job.attemptsMade < (job.opts.attempts ?? 1);

/** One BullMQ Worker for a queue, with its family's concurrency and lock, running its job types. */
function startQueueWorker(deps: WorkerDeps, queue: QueueName): Worker {
  const { config, jobs, log } = deps;
  const { concurrency, lockDurationMs } = familyOptions(jobs.queues.get(queue)!, config);
  const worker = new Worker(
    queue,
    async (job, token, signal) => {
      const type = jobs.get(queue, job.name);
      if (!type) throw new UnknownJobError(queue, job.name);
      return runJob(type, job, deps, signal, token);
    },
    {
      connection: deps.workerRedis,
      prefix: config.queuePrefix,
      concurrency,
      lockDuration: lockDurationMs,
      // Checked as often as a lock lives, so a killed worker's job is back within about two lock periods.
      stalledInterval: lockDurationMs,
    },
  );
  worker.on('error', (error) => log.warn({ queue, err: error }, 'worker connection error'));
  worker.on('failed', (job, error) => {
    log.warn({ queue, job: job?.name, jobId: job?.id, attemptsMade: job?.attemptsMade, err: error }, 'job failed');
    // BullMQ retries it after its backoff (`job.delay`): its outbox row need not be checked before.
    if (job?.id && willRetry(job, error)) {
      postponeOutboxCheck(deps, job.id, job.delay).catch((postponeError: unknown) => log.warn({ jobId: job.id, err: postponeError }, 'could not postpone the outbox check of a retried job'));
    }
  });
  worker.on('stalled', (jobId) => log.warn({ queue, jobId }, 'job stalled; it will run again'));
  return worker;
}

/**
 * The worker: one BullMQ Worker per queue of the job registry, created here and nowhere else,
 * plus the outbox relay. `worker/main.ts` runs it as a process; tests start it in-process.
 */
export async function startWorker(config: WorkerConfig, options: StartWorkerOptions = {}): Promise<WorkerApp> {
  const log = options.log ?? createLogger(config.logLevel, { process: 'worker' });
  const deps = createWorkerDeps(config, log, options.jobs ?? JOBS);
  const workers = [...deps.jobs.queues.keys()].map((queue) => startQueueWorker(deps, queue));
  await Promise.all(workers.map((w) => w.waitUntilReady()));

  const relay = options.relay === false ? null : startOutboxRelay(deps, { intervalMs: config.worker.relayIntervalMs });

  let closing: Promise<boolean> | null = null;
  return {
    deps,
    workers,
    relay,
    close(timeoutMs = SHUTDOWN_TIMEOUT_MS) {
      closing ??= (async () => {
        await relay?.stop();
        // Workers before queues and connections: they may still hand work to the next step.
        const graceful = await settlesWithin(Promise.all(workers.map((w) => w.close())), timeoutMs);
        if (!graceful) {
          log.warn({ timeoutMs }, 'active jobs did not finish in time; abandoning them');
          await settlesWithin(Promise.all(workers.map((w) => w.close(true))), 2000);
        }
        await closeWorkerDeps(deps);
        return graceful;
      })();
      return closing;
    },
  };
}
