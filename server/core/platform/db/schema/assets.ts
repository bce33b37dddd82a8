import { bigint, integer, jsonb, pgTable, text, uuid, index } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.js';
import { workspaces } from './workspaces.js';
import { people } from './people.js';
import type { Outline } from '../../../wire/outline.js';

/** A 3D asset in the workspace library: always a validated GLB in storage. */
export const assets = pgTable(
  'assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull().default('model/gltf-binary'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sourceFormat: text('source_format', { enum: ['glb', 'gltf', 'zip'] }).notNull(),
    /** What the Khronos validator reported (counts, warnings), for the owner's eyes. */
    modelInfo: jsonb('model_info').$type<Record<string, unknown>>().notNull(),
    externalSource: jsonb('external_source').$type<Record<string, unknown>>(),
    readinessScore: integer('readiness_score'),
    readinessLevel: text('readiness_level', { enum: ['ready', 'needs-work', 'not-ready'] }),
    /**
     * What the GLB names (docs/api.md, "Model outlines"); null for an asset saved before outlines, filled on first
     * read. jsonb: TOAST compresses a large one, and the scene report selects only its names.
     */
    outline: jsonb('outline').$type<Outline>(),
    /**
     * The delivery file shoppers download (docs/delivery-files.md): null until one is asked for, then `pending`, and
     * `ready` with its key and size, or `skipped`/`failed` with the reason the original is served.
     */
    deliveryStatus: text('delivery_status', { enum: ['pending', 'ready', 'skipped', 'failed'] }),
    deliveryStorageKey: text('delivery_storage_key'),
    deliverySizeBytes: bigint('delivery_size_bytes', { mode: 'number' }),
    deliveryReason: text('delivery_reason'),
    createdBy: uuid('created_by').references(() => people.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('assets_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/** An asset row as services use it: without its outline, which only the outline and scene report read. */
export type Asset = Omit<typeof assets.$inferSelect, 'outline'>;
