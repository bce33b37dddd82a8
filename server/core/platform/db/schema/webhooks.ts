import {
  bigserial,
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.js';
import { projectEvents } from './events.js';
import { projects } from './projects.js';
import { workspaces } from './workspaces.js';

const ms = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

/** Why a webhook was switched off by the platform (null: on, or switched off by its owner). */
export const WEBHOOK_DISABLED_REASONS = ['gone', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/**
 * A project's webhook (docs/api.md, Webhooks); `id` is the caller's, unique per project. `secret` stays readable
 * for the worker but is never returned; five days of unbroken failures (`failingSince`) disable it.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason', { enum: WEBHOOK_DISABLED_REASONS }),
    disabledAt: ms('disabled_at'),
    failingSince: ms('failing_since'),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * One event for one webhook, the unit receivers de-duplicate on; this row, not BullMQ, owns the retry state.
 * Fillfactor 70 (migration 0008, not modelled by drizzle) keeps its two updates per attempt on their page.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull(),
    webhookId: text('webhook_id').notNull(),
    /** The project event delivered; null for a test delivery (webhook.test). */
    eventId: uuid('event_id').references(() => projectEvents.id, { onDelete: 'set null' }),
    event: text('event').notNull(),
    body: text('body').notNull(),
    state: text('state', { enum: DELIVERY_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Attempts allowed in all; null: as many as the retry schedule gives (a redelivery or a test allows one more). */
    maxAttempts: integer('max_attempts'),
    nextAttemptAt: ms('next_attempt_at'),
    leaseUntil: ms('lease_until'),
    ...timestamps,
  },
  (t) => [
    foreignKey({ columns: [t.projectId, t.webhookId], foreignColumns: [webhooks.projectId, webhooks.id] }).onDelete(
      'cascade',
    ),
    uniqueIndex('webhook_deliveries_event_webhook_key').on(t.eventId, t.projectId, t.webhookId),
    index('webhook_deliveries_webhook_idx').on(t.projectId, t.webhookId),
  ],
);

/** Why an attempt failed (docs/webhooks.md, Answering). */
export const ATTEMPT_ERRORS = ['dns', 'connect', 'tls', 'timeout', 'ssrf_blocked', 'non_2xx'] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];

/**
 * The delivery log: one row per attempt, the "delivery record" of the interface. At most 50
 * are kept per webhook (older ones are pruned in the transaction that adds one).
 */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull(),
    webhookId: text('webhook_id').notNull(),
    event: text('event').notNull(),
    attempt: integer('attempt').notNull(),
    /** The receiver's HTTP status; 0 when no response arrived (see `error`). */
    statusCode: integer('status_code').notNull(),
    delivered: boolean('delivered').notNull(),
    error: text('error', { enum: ATTEMPT_ERRORS }),
    durationMs: integer('duration_ms').notNull(),
    /** The first 4 KB of the response body, as text. */
    responseBody: text('response_body'),
    createdAt: ms('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ columns: [t.projectId, t.webhookId], foreignColumns: [webhooks.projectId, webhooks.id] }).onDelete(
      'cascade',
    ),
    index('webhook_attempts_webhook_idx').on(t.projectId, t.webhookId, t.id),
    // The prune removes deliveries left without attempts: their cascade and that check look attempts up by delivery.
    index('webhook_attempts_delivery_idx').on(t.deliveryId),
  ],
);

export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

/** An attempt as the delivery log shows it, with its delivery's current state. */
export type LoggedAttempt = WebhookAttempt & {
  delivery: {
    deliveryState: DeliveryState;
    deliveryAttempts: number;
    nextAttemptAt: Date | null;
    requestExcerpt: string;
  };
};
