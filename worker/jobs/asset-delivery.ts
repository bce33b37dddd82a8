import type { Job } from 'bullmq';
import { DELIVERY_JOB, QUEUES, type DeliveryJobData } from '#core/jobs/queues.js';
import { defineJob } from './define-job.js';

/**
 * Makes an asset's delivery file (docs/delivery-files.md). Tried twice (a worker stopped mid-way, a full disk); then
 * the asset says `failed` and shoppers keep getting the original. Finished jobs leave BullMQ so it can be asked again.
 */
export const assetDelivery = defineJob({
  queue: QUEUES.deliveries,
  name: DELIVERY_JOB,
  // Reading a 50 MB original, the CPU pool's work (5 minutes at most) and writing the file.
  timeoutMs: 7 * 60_000,
  attempts: 2,
  backoff: { type: 'fixed', delay: 5_000 },
  removeOnComplete: true,
  removeOnFail: true,
  async process(job: Job<DeliveryJobData>, { deps, signal }) {
    return deps.deliveries.make(job.data.assetId, signal);
  },
  failed: (job, deps) => deps.deliveries.giveUp(job.data.assetId, job.failedReason),
});
