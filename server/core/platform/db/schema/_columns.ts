import { timestamp } from 'drizzle-orm/pg-core';

/**
 * Creation and update times every aggregate carries. Millisecond precision, the precision of a
 * JavaScript Date: keyset pagination compares a cursor's time with the column, and a
 * microsecond the cursor cannot hold would skip rows.
 */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
};
