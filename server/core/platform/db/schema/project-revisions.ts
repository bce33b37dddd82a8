import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea, projects } from './projects.js';
import { people } from './people.js';

/**
 * The last revisions of a project's name, type and scene (gzip'd JSON like projects.scene), written in the
 * transaction that saves each one; older ones are deleted there too (PROJECT_REVISIONS_KEPT).
 */
export const projectRevisions = pgTable(
  'project_revisions',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    scene: bytea('scene').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
    /** The person whose credentials saved it (an API key's creator); null when unknown or deleted. */
    savedBy: uuid('saved_by').references(() => people.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ name: 'project_revisions_pkey', columns: [t.projectId, t.revision] })],
);

export type ProjectRevisionRow = typeof projectRevisions.$inferSelect;
