import { pgTable, text, uuid, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.js';

/** A person, identified by the `sub` of their access token. */
export const people = pgTable(
  'people',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    email: text('email'),
    defaultWorkspaceId: uuid('default_workspace_id'),
    ...timestamps,
  },
  (t) => [uniqueIndex('people_subject_key').on(t.subject)],
);

export type Person = typeof people.$inferSelect;
