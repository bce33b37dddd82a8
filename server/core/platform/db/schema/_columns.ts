import { timestamp } from 'drizzle-orm/pg-core';

/**
 * Creation and update times, in milliseconds like a JavaScript Date: keyset pagination compares a cursor's
 * time with the column, and microseconds the cursor cannot hold would skip rows.
 */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
};
