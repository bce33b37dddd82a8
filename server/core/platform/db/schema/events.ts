import { jsonb, pgTable, text, timestamp, uuid, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { workspaces } from './workspaces.js';

/**
 * Every domain event a project emits (form.submitted, project.updated, ...). Webhook dispatch
 * reads from here. `dedupeKey` makes an emit from a retried job a no-op.
 */
export const projectEvents = pgTable(
  'project_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('project_events_dedupe_key').on(t.dedupeKey),
    index('project_events_project_idx').on(t.projectId, t.createdAt),
    // The visitor event retention sweep deletes by type and age.
    index('project_events_type_created_idx').on(t.type, t.createdAt),
  ],
);

export type ProjectEvent = typeof projectEvents.$inferSelect;
