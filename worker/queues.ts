import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUES, type QueueName } from '../server/core/jobs/queues.js';

/** One BullMQ producer per queue: only the worker hands jobs to BullMQ (the relay, a step handing over to the next). */
export type Queues = Record<QueueName, Queue>;

/** Creates the producers. `prefix` isolates deployments (and test files) in one Redis. */
export function createQueues(connection: ConnectionOptions, prefix: string): Queues {
  const entries = Object.values(QUEUES).map((name) => {
    const queue = new Queue(name, { connection, prefix });
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
