import { bigserial, jsonb, pgTable, text, timestamp, index, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Background work committed in the same transaction as the data it concerns. A row stays until
 * its job finishes (the processor deletes it), so the relay can re-enqueue anything Redis lost.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queue: text('queue').notNull(),
    jobName: text('job_name').notNull(),
    jobId: text('job_id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    lastEnqueuedAt: timestamp('last_enqueued_at', { withTimezone: true }),
    /** The BullMQ job carrying this row's work with other rows' (a job type's `batch`); null: its own job, `job_id`. */
    carrierJobId: text('carrier_job_id'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('outbox_job_id_key').on(t.jobId), index('outbox_due_idx').on(t.nextAttemptAt)],
);

export type OutboxRow = typeof outbox.$inferSelect;
