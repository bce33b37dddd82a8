import { Worker, type Job, type WorkerOptions } from 'bullmq';
import type { WorkerConfig } from './config.js';
import { QUEUES, type QueueName } from '../server/core/jobs/queues.js';
import type { SubmissionStep } from '../server/core/platform/db/schema/index.js';
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from './deps.js';
import { createLogger, type Logger } from '../server/core/platform/log.js';
import { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './relay.js';
import { giveUpSubmissionStep, runSubmissionStep, type StepProcessor, type SubmissionJobData } from './submission-step.js';
import { createHealthProcessor } from './processors/health.js';
import { screenshotsStep } from './processors/screenshots.js';
import { pdfStep } from './processors/pdf.js';
import { emailStep } from './processors/email.js';
import { eventsStep } from './processors/events.js';

/** The steps of a submission, by job name (the step). */
const SUBMISSION_STEP_PROCESSORS: Record<SubmissionStep, StepProcessor> = {
  screenshots: screenshotsStep,
  pdf: pdfStep,
  email: emailStep,
  events: eventsStep,
};

/** One processor per queue: a queue without one would fill up unnoticed, so the type demands them all. */
function processorsFor(deps: WorkerDeps): Record<QueueName, (job: Job) => Promise<unknown>> {
  return {
    health: createHealthProcessor(deps),
    submissions: async (job: Job<SubmissionJobData>) => {
      const processor = SUBMISSION_STEP_PROCESSORS[job.name as SubmissionStep];
      if (!processor) throw new Error(`unknown submission step ${job.name}`);
      return runSubmissionStep(deps, job, processor);
    },
  };
}

/**
 * What the relay records when it gives up a job lost too often, by queue. Queues without an
 * entry only lose the outbox row (their work has no state of its own in Postgres).
 */
function giveUpFor(deps: WorkerDeps): NonNullable<OutboxRelayOptions['onGiveUp']> {
  const submissionStep = giveUpSubmissionStep(deps);
  return async (tx, row) => {
    if (row.queue === QUEUES.submissions) await submissionStep(tx, row);
  };
}

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
}

/** Default time active jobs get to finish on shutdown. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

const timeout = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/**
 * The worker: every BullMQ Worker of the product, created here and nowhere else, plus the
 * outbox relay. `worker/main.ts` runs it as a process; tests start it in-process.
 */
export async function startWorker(config: WorkerConfig, options: StartWorkerOptions = {}): Promise<WorkerApp> {
  const log = options.log ?? createLogger(config.logLevel, { process: 'worker' });
  const deps = createWorkerDeps(config, log);
  const workerOptions: WorkerOptions = {
    connection: deps.workerRedis,
    prefix: config.queuePrefix,
    concurrency: config.worker.concurrency,
    lockDuration: config.worker.lockDurationMs,
    // Checked as often as a lock lives, so a killed worker's job is back within about two lock periods.
    stalledInterval: config.worker.lockDurationMs,
  };

  const workers = Object.entries(processorsFor(deps)).map(([queue, processor]) => {
    const worker = new Worker(queue, processor, workerOptions);
    worker.on('error', (error) => log.warn({ queue, err: error }, 'worker connection error'));
    worker.on('failed', (job, error) => log.warn({ queue, job: job?.name, jobId: job?.id, attemptsMade: job?.attemptsMade, err: error }, 'job failed'));
    worker.on('stalled', (jobId) => log.warn({ queue, jobId }, 'job stalled; it will run again'));
    return worker;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));

  const relay =
    options.relay === false
      ? null
      : startOutboxRelay({
          db: deps.db,
          queues: deps.queues,
          intervalMs: config.worker.relayIntervalMs,
          resendAfterMs: config.worker.resendAfterMs,
          log,
          onGiveUp: giveUpFor(deps),
        });

  let closing: Promise<boolean> | null = null;
  return {
    deps,
    workers,
    relay,
    close(timeoutMs = SHUTDOWN_TIMEOUT_MS) {
      closing ??= (async () => {
        await relay?.stop();
        // Workers before queues and connections: they may still hand work to the next step.
        const graceful = (await Promise.race([Promise.all(workers.map((w) => w.close())).then(() => 'closed' as const), timeout(timeoutMs)])) === 'closed';
        if (!graceful) {
          log.warn({ timeoutMs }, 'active jobs did not finish in time; abandoning them');
          await Promise.race([Promise.all(workers.map((w) => w.close(true))), timeout(2000)]);
        }
        await closeWorkerDeps(deps);
        return graceful;
      })();
      return closing;
    },
  };
}
