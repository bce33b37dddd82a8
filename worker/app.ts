import { WaitingError, Worker } from 'bullmq';
import type { WorkerConfig } from './config.js';
import { QUEUES, type QueueName } from '#core/jobs/queues.js';
import { closeWorkerDeps, createWorkerDeps } from './deps.js';
import { createLogger, type Logger } from '#core/platform/log.js';
import { withTimeout } from '#core/platform/deadline.js';
import { startOutboxRelay } from './outbox-relay.js';
import { JOBS } from './jobs/index.js';
import { familyOptions } from './jobs/queue-family.js';
import { UnknownJobError, jobOptions, runJob, type JobRegistry, type WorkerDeps } from './jobs/define-job.js';
import { STORAGE_SWEEP_INTERVAL_MS, storageSweep } from './jobs/storage-sweep.js';
import { VISITOR_EVENT_SWEEP_INTERVAL_MS, visitorEventSweep } from './jobs/visitor-event-sweep.js';
import { CONFIGURATION_SWEEP_INTERVAL_MS, configurationSweep } from './jobs/configuration-sweep.js';

export interface StartWorkerOptions {
  log?: Logger;
  /** Run the outbox relay in this process (default true). */
  relay?: boolean;
  /** The job types to run (default every job type of the product, worker/jobs/index.ts). */
  jobs?: JobRegistry;
}

/** Whether `promise` resolved within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  withTimeout(() => promise, ms).then(
    () => true,
    () => false,
  );

/** The part of the shutdown time kept for handing jobs back and closing connections. */
const HAND_BACK_MS = 2000;

/** One BullMQ Worker for a queue, with its family's concurrency and lock, running its job types. */
function startQueueWorker(
  deps: WorkerDeps,
  queue: QueueName,
  running: Set<AbortController>,
  handingBack: { value: boolean },
): Worker {
  const { config, jobs, log } = deps;
  const { concurrency, lockDurationMs } = familyOptions(jobs.queues.get(queue)!, config);
  const worker = new Worker(
    queue,
    async (job, token, signal) => {
      const type = jobs.get(queue, job.name);
      if (!type) throw new UnknownJobError(queue, job.name);
      // Aborted by BullMQ (a cancelled job) or by the shutdown's hand-back, whichever comes first.
      const run = new AbortController();
      const cancel = () => run.abort(signal?.reason);
      signal?.addEventListener('abort', cancel, { once: true });
      running.add(run);
      try {
        return await runJob(type, job, deps, run.signal, token);
      } catch (error) {
        if (!handingBack.value) throw error;
        // Shutting down: back to waiting, not failed and no attempt spent; processors are
        // idempotent, so whatever this run did is safe to do again.
        await job.moveToWait(token);
        log.info({ queue, job: job.name, jobId: job.id }, 'job handed back to the queue on shutdown');
        throw new WaitingError();
      } finally {
        running.delete(run);
        signal?.removeEventListener('abort', cancel);
      }
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
    // `finishedOn` is set only when BullMQ will not retry the job.
    const type = job?.finishedOn ? jobs.get(queue, job.name) : undefined;
    if (!job || !type?.failed) return;
    type
      .failed(job, deps)
      .catch((recordError: unknown) =>
        log.error(
          { queue, jobId: job.id, err: recordError },
          'could not record a failed job; the relay will run it again',
        ),
      );
  });
  worker.on('stalled', (jobId) => log.warn({ queue, jobId }, 'job stalled; it will run again'));
  return worker;
}

/**
 * The worker: one BullMQ Worker per queue of the job registry, created here and nowhere else,
 * plus the outbox relay. `worker/main.ts` runs it as a process; tests start it in-process.
 */
export async function startWorker(config: WorkerConfig, options: StartWorkerOptions = {}) {
  const log = options.log ?? createLogger(config.logLevel, { process: 'worker' });
  const deps = createWorkerDeps(config, log, options.jobs ?? JOBS);
  // The runs in progress, so that shutdown can stop the ones still going at its deadline.
  const running = new Set<AbortController>();
  const handingBack = { value: false };
  const workers = [...deps.jobs.queues.keys()].map((queue) => startQueueWorker(deps, queue, running, handingBack));
  await Promise.all(workers.map((w) => w.waitUntilReady()));

  // Idempotent across workers: each scheduler's id is fixed, so N workers keep one schedule.
  for (const [type, every] of [
    [storageSweep, STORAGE_SWEEP_INTERVAL_MS],
    [visitorEventSweep, VISITOR_EVENT_SWEEP_INTERVAL_MS],
    [configurationSweep, CONFIGURATION_SWEEP_INTERVAL_MS],
  ] as const) {
    if (!deps.jobs.get(QUEUES.maintenance, type.name)) continue;
    const { removeOnComplete, removeOnFail } = jobOptions(type, type.name);
    await deps.queues[QUEUES.maintenance]
      .upsertJobScheduler(type.name, { every }, { name: type.name, opts: { removeOnComplete, removeOnFail } })
      .catch((error: unknown) =>
        log.warn({ err: error, job: type.name }, 'could not schedule a sweep; the next worker start will'),
      );
  }

  const relay = options.relay === false ? null : startOutboxRelay(deps, config.worker.relayIntervalMs);

  let closing: Promise<boolean> | null = null;
  return {
    deps,
    workers,
    relay,
    /**
     * Stops taking jobs, lets the active ones finish for up to `timeoutMs`, then hands those still running back to
     * the queue (another worker takes them at once) and closes every connection; true when every job finished in time.
     */
    close(timeoutMs = config.shutdownTimeoutMs): Promise<boolean> {
      closing ??= (async () => {
        await relay?.stop();
        // Workers before queues and connections: they may still hand work to the next step.
        const closed = Promise.all(workers.map((w) => w.close()));
        const graceful = await settlesWithin(closed, Math.max(0, timeoutMs - HAND_BACK_MS));
        if (!graceful) {
          log.warn({ timeoutMs }, 'active jobs did not finish in time; handing them back to the queue');
          handingBack.value = true;
          for (const run of running) run.abort(new Error('the worker is shutting down'));
          if (!(await settlesWithin(closed, HAND_BACK_MS / 2)))
            await settlesWithin(Promise.all(workers.map((w) => w.close(true))), HAND_BACK_MS / 2);
        }
        await closeWorkerDeps(deps);
        return graceful;
      })();
      return closing;
    },
  };
}

export type WorkerApp = Awaited<ReturnType<typeof startWorker>>;
