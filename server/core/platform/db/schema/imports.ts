import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.js';
import { workspaces } from './workspaces.js';
import { people } from './people.js';

const ms = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

/** The online libraries, neutral on the wire (library_a Poly Haven, library_b Sketchfab, library_c Smithsonian). */
export const PROVIDER_IDS = ['library_a', 'library_b', 'library_c'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export const IMPORT_STATUSES = ['queued', 'downloading', 'processing', 'saving', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** The states that count toward the 3 imports a workspace may run at once. */
export const ACTIVE_IMPORT_STATUSES = [
  'queued',
  'downloading',
  'processing',
  'saving',
] as const satisfies readonly ImportStatus[];

export interface ImportError {
  code: string;
  message: string;
}

/**
 * A library import job (docs/libraries.md, Imports). Its asset takes the job's id so a run that died before commit
 * leaves nothing another row claims; `runs` above one means an earlier run died.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    personId: uuid('person_id').references(() => people.id, { onDelete: 'set null' }),
    provider: text('provider', { enum: PROVIDER_IDS }).notNull(),
    providerAssetId: text('provider_asset_id').notNull(),
    /** The asset category id the client asked for (optional). */
    category: text('category'),
    licenseAcknowledged: boolean('license_acknowledged').notNull().default(false),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    stage: text('stage').notNull().default('Waiting for a worker'),
    bytesReceived: bigint('bytes_received', { mode: 'number' }).notNull().default(0),
    bytesTotal: bigint('bytes_total', { mode: 'number' }),
    runs: integer('runs').notNull().default(0),
    assetId: uuid('asset_id'),
    readiness: jsonb('readiness').$type<Record<string, unknown>>(),
    notices: jsonb('notices').$type<string[]>(),
    error: jsonb('error').$type<ImportError>(),
    finishedAt: ms('finished_at'),
    ...timestamps,
  },
  (t) => [
    index('import_jobs_workspace_idx').on(t.workspaceId, t.createdAt),
    index('import_jobs_active_idx').on(t.workspaceId, t.status),
  ],
);

export type ImportJob = typeof importJobs.$inferSelect;

/**
 * A person's account at library_b (the connection belongs to the person, not the workspace).
 * Tokens are AES-256-GCM ciphertexts (TOKEN_ENCRYPTION_KEY); they never leave the server.
 */
export const libraryConnections = pgTable(
  'library_connections',
  {
    personId: uuid('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: PROVIDER_IDS }).notNull(),
    accessTokenEnc: text('access_token_enc').notNull(),
    refreshTokenEnc: text('refresh_token_enc'),
    expiresAt: ms('expires_at'),
    scope: text('scope'),
    username: text('username'),
    displayName: text('display_name'),
    profileUrl: text('profile_url'),
    connectedAt: ms('connected_at').notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [uniqueIndex('library_connections_person_provider_idx').on(t.personId, t.provider)],
);

export type LibraryConnection = typeof libraryConnections.$inferSelect;
