import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { workspaces } from './workspaces.js';
import type { Price } from '../../../wire/configurator/index.js';

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

/**
 * A configuration put in a cart (docs/cart.md): resolved and priced by the server against one revision. The id is
 * a hash of what it is, so adding the same thing twice finds this row; `expiresAt` moves on at each repeat.
 */
export const configurations = pgTable(
  'configurations',
  {
    id: text('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    options: jsonb('options').$type<Record<string, string>>().notNull(),
    fields: jsonb('fields').$type<Record<string, number>>().notNull(),
    quantity: integer('quantity').notNull(),
    /** One unit's price (the configurator's price object), null without pricing. */
    price: jsonb('price').$type<Price>(),
    sku: text('sku'),
    summary: text('summary').notNull(),
    imageKey: text('image_key'),
    createdAt: time('created_at').notNull().defaultNow(),
    expiresAt: time('expires_at').notNull(),
  },
  (t) => [
    index('configurations_project_idx').on(t.projectId, t.createdAt),
    index('configurations_expiry_idx').on(t.expiresAt),
  ],
);

export type ConfigurationRow = typeof configurations.$inferSelect;
