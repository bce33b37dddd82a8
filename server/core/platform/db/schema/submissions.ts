import { integer, jsonb, pgTable, primaryKey, text, timestamp, uuid, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.js';
import { projects, bytea } from './projects.js';
import { workspaces } from './workspaces.js';
import type { ClientPrice, StoredPrice } from '../../../domain/request-price.js';

/** Every step a request may have; `customerCopy` only when the visitor is sent a copy (requestSteps). */
export const SUBMISSION_STEPS = ['screenshots', 'pdf', 'email', 'customerCopy', 'events'] as const;
export type SubmissionStep = (typeof SUBMISSION_STEPS)[number];

/** The steps of one request: the visitor's copy only when the project sends one and the form gave an address. */
export const requestSteps = (customerCopy: boolean): SubmissionStep[] =>
  SUBMISSION_STEPS.filter((step) => customerCopy || step !== 'customerCopy');
export const STEP_STATES = ['pending', 'done', 'failed'] as const;
export type StepState = (typeof STEP_STATES)[number];

/** A visitor's form submission ("request" on the owner side). */
export const submissions = pgTable(
  'submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('new'),
    formData: jsonb('form_data').$type<Record<string, unknown>>().notNull(),
    selectedOptions: jsonb('selected_options').$type<Record<string, unknown>>().notNull(),
    configurationSummary: text('configuration_summary').notNull().default(''),
    /** The server's price of the request (docs/api.md, Submit; with `ignored`), null without pricing. */
    price: jsonb('price').$type<StoredPrice>(),
    /** `{ total, currency }` as the page sent it, or null. */
    clientPrice: jsonb('client_price').$type<ClientPrice>(),
    idempotencyKey: text('idempotency_key'),
    clientIp: text('client_ip'),
    pdfKey: text('pdf_key'),
    ...timestamps,
  },
  (t) => [
    index('submissions_project_idx').on(t.projectId, t.createdAt),
    uniqueIndex('submissions_idempotency_key').on(t.projectId, t.idempotencyKey),
  ],
);

/**
 * Screenshots committed with the request, so the acknowledgement never depends on storage; the screenshots
 * step then moves them to storage and clears `data`.
 */
export const submissionScreenshots = pgTable(
  'submission_screenshots',
  {
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    mimeType: text('mime_type').notNull(),
    data: bytea('data'),
    storageKey: text('storage_key'),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.position] })],
);

/** The state of each background step of a submission. */
export const submissionSteps = pgTable(
  'submission_steps',
  {
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    step: text('step', { enum: SUBMISSION_STEPS }).notNull(),
    state: text('state', { enum: STEP_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** The run working on the step until `leased_until` (database clock): a job redelivered meanwhile waits. */
    leaseHolder: text('lease_holder'),
    leasedUntil: timestamp('leased_until', { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.step] })],
);

export type Submission = typeof submissions.$inferSelect;
export type SubmissionStepRow = typeof submissionSteps.$inferSelect;
