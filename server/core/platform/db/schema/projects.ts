import { boolean, customType, integer, pgTable, text, uuid, index } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.js';
import { workspaces } from './workspaces.js';

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A configurator project. `scene` is the gzip-compressed JSON of the project data (models,
 * sceneData, camera, ...); `revision` goes up on every change and feeds the public ETag.
 */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    scene: bytea('scene').notNull(),
    sceneBytes: integer('scene_bytes').notNull(),
    modelCount: integer('model_count').notNull().default(0),
    hasPricing: boolean('has_pricing').notNull().default(false),
    revision: integer('revision').notNull().default(1),
    /** The console's picture of the configured product; not part of a revision. */
    thumbnailKey: text('thumbnail_key'),
    ...timestamps,
  },
  (t) => [index('projects_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/** Share settings, one row per project. `revision` goes up on every change (ETag input). */
export const shareSettings = pgTable('share_settings', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  isEnabled: boolean('is_enabled').notNull().default(false),
  shareToken: text('share_token').notNull(),
  domainRestrictions: text('domain_restrictions').array().notNull().default([]),
  requirePassword: boolean('require_password').notNull().default(false),
  passwordHash: text('password_hash'),
  revision: integer('revision').notNull().default(1),
  ...timestamps,
});

export type Project = typeof projects.$inferSelect;
export type ShareSettingsRow = typeof shareSettings.$inferSelect;
