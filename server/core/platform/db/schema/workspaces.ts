import { integer, pgTable, primaryKey, text, uuid, index } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.js';
import { people } from './people.js';

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const BILLING_STATUSES = ['active', 'locked'] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

export const workspaces = pgTable('workspaces', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** The plan's 3D model limit: assets (uploads and imports) the workspace may hold. */
  modelLimit: integer('model_limit').notNull(),
  billingStatus: text('billing_status', { enum: BILLING_STATUSES }).notNull().default('active'),
  /** Goes up when an asset is deleted: public ETags include it, since signed model URLs change. */
  assetsRevision: integer('assets_revision').notNull().default(1),
  ...timestamps,
});

export const memberships = pgTable(
  'memberships',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    personId: uuid('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.personId] }), index('memberships_person_idx').on(t.personId)],
);

export type Workspace = typeof workspaces.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
