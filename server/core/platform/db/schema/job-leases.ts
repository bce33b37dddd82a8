import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Who is working on something right now, for work that must not run twice at the same time
 * (a job redelivered while its first run still works). A lease is held until `expires_at`; its
 * holder renews it while it works and deletes it when done, and an expired one is anyone's.
 */
export const jobLeases = pgTable('job_leases', {
  key: text('key').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
});

export type JobLease = typeof jobLeases.$inferSelect;
