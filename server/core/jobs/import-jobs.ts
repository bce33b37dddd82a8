import { QUEUES } from './queues.js';
import type { OutboxJob } from './outbox.js';

/** A library import as a job: one job per import, its id the import job's id (BullMQ ids must not contain ':'). */
export const IMPORT_JOB = 'import';

export interface ImportJobData {
  importId: string;
}

export const importJobId = (importId: string) => `imp_${importId}`;

export function importOutboxJob(importId: string): OutboxJob {
  const data: ImportJobData = { importId };
  return { queue: QUEUES.imports, name: IMPORT_JOB, jobId: importJobId(importId), data: { ...data } };
}
