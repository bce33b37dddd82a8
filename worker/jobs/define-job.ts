import { UnrecoverableError, type BackoffOptions, type Job, type JobsOptions, type KeepJobs } from 'bullmq';
import type { QueueName } from '#core/jobs/queues.js';
import { withTimeout } from '#core/platform/deadline.js';
import type { createWorkerDeps } from '../deps.js';
import type { QueueFamily } from './queue-family.js';

/** What a processor gets besides its job. */
export interface JobContext {
  deps: WorkerDeps;
  /** Aborts when the run's `timeoutMs` is up or the worker cancels the job: stop what was started. */
  signal: AbortSignal;
  /** The run's BullMQ lock token (for `job.moveToDelayed`); absent when a test runs a processor directly. */
  token?: string;
}

/**
 * Processors must be idempotent against Postgres (jobs arrive at least once); a permanent failure
 * throws UnrecoverableError, a transient one a plain error, retried with `backoff`.
 */
export interface JobType<Data = unknown, Result = unknown> {
  queue: QueueName;
  /** The BullMQ job name (the outbox row's `job_name`). */
  name: string;
  /** Runs in all, the first included (default 1). */
  attempts?: number;
  /** Wait between runs; BullMQ's strategies (`fixed`, `exponential`, with `jitter`). */
  backoff?: BackoffOptions;
  /** A run still going after this long fails like any error (and is retried if attempts remain). */
  timeoutMs: number;
  /** How many finished jobs BullMQ keeps (default: 100 each). */
  removeOnComplete?: KeepJobs | number | boolean;
  removeOnFail?: KeepJobs | number | boolean;
  process(job: Job<Data>, ctx: JobContext): Promise<Result>;
  /**
   * Runs once BullMQ has failed the job for good (attempts spent, or stalled more often than `maxStalledCount`):
   * records the failure and ends the outbox row; if it cannot, the relay hands the job over again.
   */
  failed?(job: Job<Data>, deps: WorkerDeps): Promise<void>;
  /**
   * First hand-overs travel up to `size` per job of `type`, so a burst costs one BullMQ job per batch;
   * a row whose carrier died unfinished is handed over again alone.
   */
  batch?: { type: JobType; size: number };
}

/** The job types, by queue and name, and the queues they run on. */
export interface JobRegistry {
  /** The queues with at least one job type: one BullMQ Worker each. */
  queues: Map<QueueName, QueueFamily>;
  get(queue: string, name: string): JobType | undefined;
  /** `queue/name` of every job type: the outbox rows this worker hands over. */
  keys(): string[];
}

/**
 * What jobs and the relay get: the worker's clients and services, and the registry of the job types they run
 * (declared here, next to the job types that take it, so that no module imports back the one importing it).
 */
export type WorkerDeps = ReturnType<typeof createWorkerDeps<JobRegistry>>;

/** The data of a job carrying the work of several outbox rows (`JobType.batch`). */
export interface BatchJobData<Item = Record<string, unknown>> {
  items: Item[];
}

/** Declares a job type (typed; the registry in ./index.ts lists them). */
export function defineJob<Data, Result>(type: JobType<Data, Result>): JobType<Data, Result> {
  return type;
}

/** The BullMQ options of a hand-over of this job type's job `jobId`. */
export function jobOptions(type: JobType, jobId: string): JobsOptions {
  return {
    jobId,
    attempts: type.attempts ?? 1,
    backoff: type.backoff,
    removeOnComplete: type.removeOnComplete ?? 100,
    removeOnFail: type.removeOnFail ?? 100,
  };
}

/** Runs a job of this type under its timeout; `signal` is BullMQ's own cancellation of the job. */
export function runJob(
  type: JobType,
  job: Job,
  deps: WorkerDeps,
  signal?: AbortSignal,
  token?: string,
): Promise<unknown> {
  const message = `${type.queue}/${type.name}: the run took longer than ${type.timeoutMs} ms`;
  return withTimeout(
    (runSignal) => type.process(job, { deps, signal: runSignal, token }),
    type.timeoutMs,
    message,
    signal,
  );
}

/** Thrown for a job name no job type declares (another version's): retrying will not help. */
export class UnknownJobError extends UnrecoverableError {
  constructor(queue: string, name: string) {
    super(`no job type ${queue}/${name}`);
  }
}
