import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';

/** Every BullMQ queue the product uses, named in one place. */
export const QUEUES = {
  health: 'health',
  submissions: 'submissions',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Retry policy of each queue's jobs; processors are idempotent, so retrying is always safe. */
export const JOB_DEFAULTS: Record<QueueName, JobsOptions> = {
  health: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
  submissions: {
    attempts: 8,
    backoff: { type: 'exponential', delay: 2000, jitter: 0.2 },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  },
};

export type Queues = Record<QueueName, Queue>;

/** Creates one producer per queue. `prefix` isolates deployments (and test files) in one Redis. */
export function createQueues(connection: ConnectionOptions, prefix: string): Queues {
  const entries = Object.values(QUEUES).map((name) => {
    const queue = new Queue(name, { connection, prefix, defaultJobOptions: JOB_DEFAULTS[name] });
    // Connection trouble surfaces on the calls that fail (the outbox keeps the work); without a
    // listener BullMQ would print every reconnect error.
    queue.on('error', () => {});
    return [name, queue];
  });
  return Object.fromEntries(entries) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}
