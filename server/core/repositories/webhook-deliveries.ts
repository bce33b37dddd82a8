import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import {
  webhookAttempts,
  webhookDeliveries,
  webhooks,
  type AttemptError,
  type DeliveryState,
  type LoggedAttempt,
  type WebhookAttempt,
  type WebhookDelivery,
} from '../platform/db/schema/index.js';
import { DELIVERY_LOG_SIZE } from '../domain/webhooks/event-types.js';

/**
 * Webhook deliveries and their attempts (the delivery log). Owner reads take workspace and project ids; the
 * worker's methods take the delivery id its job carries.
 */

/** A delivery claimed for an attempt, with what sending needs of its webhook. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  url: string;
  secret: string;
  enabled: boolean;
}

export interface NewAttempt {
  deliveryId: string;
  projectId: string;
  webhookId: string;
  event: string;
  attempt: number;
  statusCode: number;
  delivered: boolean;
  error: AttemptError | null;
  durationMs: number;
  responseBody: string | null;
}

/** One attempt to claim: which delivery, which attempt, and for how long. */
export interface ClaimRequest {
  deliveryId: string;
  attempt: number;
  leaseMs: number;
}

/** A delivered attempt to record, with the outbox job it ends. */
export type DeliveredAttempt = NewAttempt & { jobId: string };

export function createWebhookDeliveryRepository(db: Db) {
  const repository = {
    /** A test delivery (webhook.test) for one webhook: one attempt, made by the caller at once. */
    async createTest(
      tx: Executor,
      input: { workspaceId: string; projectId: string; webhookId: string; body: string; event: string },
    ): Promise<WebhookDelivery> {
      const [row] = await tx
        .insert(webhookDeliveries)
        .values({ ...input, maxAttempts: 1, nextAttemptAt: sql`now()` })
        .returning();
      return row;
    },

    /** Locks one delivery of a webhook (for a redelivery). */
    async lock(
      tx: Executor,
      workspaceId: string,
      projectId: string,
      webhookId: string,
      deliveryId: string,
    ): Promise<WebhookDelivery | null> {
      const [row] = await tx
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.workspaceId, workspaceId),
            eq(webhookDeliveries.projectId, projectId),
            eq(webhookDeliveries.webhookId, webhookId),
            eq(webhookDeliveries.id, deliveryId),
          ),
        )
        .for('update');
      return row ?? null;
    },

    /** A finished delivery gets one more attempt (a redelivery): pending again, due now. */
    async reopen(tx: Executor, deliveryId: string): Promise<WebhookDelivery> {
      const [row] = await tx
        .update(webhookDeliveries)
        .set({
          state: 'pending',
          maxAttempts: sql`${webhookDeliveries.attempts} + 1`,
          nextAttemptAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(webhookDeliveries.id, deliveryId))
        .returning();
      return row;
    },

    /**
     * Claims attempts, each for its `leaseMs`, in one statement so only one run makes an attempt. Per request,
     * in order: null when the delivery is gone, finished, past this attempt, or leased by another run.
     */
    async claimAttempts(requests: readonly ClaimRequest[]): Promise<Array<ClaimedDelivery | null>> {
      if (requests.length === 0) return [];
      const input = JSON.stringify(
        requests.map((r) => ({ id: r.deliveryId, attempt: r.attempt, lease_ms: Math.round(r.leaseMs) })),
      );
      const result = await db.execute<WebhookDelivery & { url: string; secret: string; enabled: boolean }>(sql`
        with c as (
          select * from jsonb_to_recordset(${input}::jsonb) as c(id uuid, attempt int, lease_ms int) order by id
        )
        update webhook_deliveries d
        set attempts = c.attempt, lease_until = now() + c.lease_ms * interval '1 millisecond', updated_at = now()
        from c, webhooks w
        where d.id = any (array(select id from c)) and d.id = c.id
          and w.project_id = d.project_id and w.id = d.webhook_id and d.state = 'pending'
          and (d.attempts = c.attempt - 1
            or (d.attempts = c.attempt and (d.lease_until is null or d.lease_until < now())))
        returning d.id, d.workspace_id as "workspaceId", d.project_id as "projectId", d.webhook_id as "webhookId",
          d.event_id as "eventId", d.event, d.body, d.state, d.attempts, d.max_attempts as "maxAttempts",
          d.next_attempt_at as "nextAttemptAt", d.lease_until as "leaseUntil",
          d.created_at as "createdAt", d.updated_at as "updatedAt", w.url, w.secret, w.enabled
      `);
      const byKey = new Map<string, ClaimedDelivery>();
      for (const row of result.rows) {
        const { url, secret, enabled, ...delivery } = row;
        byKey.set(`${delivery.id}/${delivery.attempts}`, { delivery, url, secret, enabled });
      }
      // Two requests for the same attempt in one statement: the row was updated once, so only the first wins.
      return requests.map((r) => {
        const key = `${r.deliveryId}/${r.attempt}`;
        const claim = byKey.get(key) ?? null;
        byKey.delete(key);
        return claim;
      });
    },

    /** Where a delivery stands (for a job whose claim failed). */
    async state(deliveryId: string): Promise<Pick<WebhookDelivery, 'state' | 'attempts'> | null> {
      const [row] = await db
        .select({ state: webhookDeliveries.state, attempts: webhookDeliveries.attempts })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, deliveryId));
      return row ?? null;
    },

    /** Logs an attempt and prunes the webhook's log (pruneLog) in the caller's transaction. */
    async recordAttempt(tx: Executor, attempt: NewAttempt): Promise<WebhookAttempt> {
      const [row] = await tx.insert(webhookAttempts).values(attempt).returning();
      await tx.execute(sql`
        with hooks as (
          select ${attempt.projectId}::uuid as project_id, ${attempt.webhookId}::text as webhook_id, 0 as added
        ), ${pruneLog(sql`true`)}
      `);
      return row;
    },

    /** Records many delivered attempts, their deliveries and outbox rows in one statement (one round trip). */
    async recordDeliveredMany(attempts: readonly DeliveredAttempt[]): Promise<void> {
      if (attempts.length === 0) return;
      const input = JSON.stringify(
        attempts.map((a) => ({
          delivery_id: a.deliveryId,
          project_id: a.projectId,
          webhook_id: a.webhookId,
          event: a.event,
          attempt: a.attempt,
          status_code: a.statusCode,
          duration_ms: a.durationMs,
          response_body: a.responseBody,
          job_id: a.jobId,
        })),
      );
      await db.execute(sql`
        -- "= any (array(...))" keeps every lookup on an index, however few rows the planner expects.
        with input as (
          select * from jsonb_to_recordset(${input}::jsonb)
            as i(delivery_id uuid, project_id uuid, webhook_id text, event text, attempt int, status_code int,
                 duration_ms int, response_body text, job_id text)
        ), added as (
          insert into webhook_attempts (delivery_id, project_id, webhook_id, event, attempt, status_code, delivered,
                                        error, duration_ms, response_body)
          select delivery_id, project_id, webhook_id, event, attempt, status_code, true,
                 null, duration_ms, response_body
          from input
          returning id
        ), settled as (
          update webhook_deliveries d
          set state = 'delivered', next_attempt_at = null, lease_until = null, updated_at = now()
          where d.id = any (array(select delivery_id from input))
        ), done as (
          delete from outbox where job_id = any (array(select job_id from input))
        ), hooks as (
          select project_id, webhook_id, count(*)::int as added from input group by project_id, webhook_id
        ), streak as (
          update webhooks w set failing_since = null
          from hooks where w.project_id = hooks.project_id and w.id = hooks.webhook_id and w.failing_since is not null
        ), ${pruneLog(sql`d.id <> all (array(select delivery_id from input))`)}
      `);
    },

    /** The delivery's new state after an attempt: finished, or pending until `nextAttemptAt`. */
    async settle(tx: Executor, deliveryId: string, state: DeliveryState, nextAttemptAt: Date | null): Promise<void> {
      await tx
        .update(webhookDeliveries)
        .set({ state, nextAttemptAt, leaseUntil: null, updatedAt: sql`now()` })
        .where(eq(webhookDeliveries.id, deliveryId));
    },

    /** A delivery whose job was lost again and again ends failed (the relay gave it up). */
    async abandon(tx: Executor, deliveryId: string): Promise<void> {
      await tx
        .update(webhookDeliveries)
        .set({ state: 'failed', nextAttemptAt: null, leaseUntil: null, updatedAt: sql`now()` })
        .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.state, 'pending')));
    },

    /**
     * The log: attempts newest first, each with where its delivery stands now (state, attempts
     * made, next retry) and the start of the request body it sent.
     */
    listAttempts: (workspaceId: string, projectId: string, webhookId: string): Promise<LoggedAttempt[]> =>
      db
        .select({
          attempt: webhookAttempts,
          deliveryState: webhookDeliveries.state,
          deliveryAttempts: webhookDeliveries.attempts,
          nextAttemptAt: webhookDeliveries.nextAttemptAt,
          requestExcerpt: sql<string>`left(${webhookDeliveries.body}, ${REQUEST_EXCERPT_CHARS})`,
        })
        .from(webhookAttempts)
        .innerJoin(
          webhooks,
          and(eq(webhooks.projectId, webhookAttempts.projectId), eq(webhooks.id, webhookAttempts.webhookId)),
        )
        .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
        .where(
          and(
            eq(webhooks.workspaceId, workspaceId),
            eq(webhookAttempts.projectId, projectId),
            eq(webhookAttempts.webhookId, webhookId),
          ),
        )
        .orderBy(desc(webhookAttempts.id))
        .limit(DELIVERY_LOG_SIZE)
        .then((rows) =>
          rows.map(({ attempt, ...delivery }) => ({
            ...attempt,
            delivery: {
              ...delivery,
              nextAttemptAt: delivery.deliveryState === 'pending' ? delivery.nextAttemptAt : null,
            },
          })),
        ),
  };
  return repository;
}

/**
 * Tail of a statement whose CTE `hooks` (project_id, webhook_id, added) names webhooks just logged to:
 * prunes each log to DELIVERY_LOG_SIZE (counting `added`, rows this statement cannot see) and deletes
 * finished deliveries without attempts except `keep`. Rows being pruned elsewhere are skipped so concurrent
 * attempts to one webhook never block each other.
 */
function pruneLog(keep: SQL) {
  return sql`old as (
      select o.id from hooks cross join lateral (
        select a.id from webhook_attempts a
        where a.project_id = hooks.project_id and a.webhook_id = hooks.webhook_id
        order by a.id desc offset greatest(0, ${DELIVERY_LOG_SIZE} - hooks.added)
        for update skip locked
      ) o
    ), gone as (
      delete from webhook_attempts a using old where a.id = old.id returning a.id, a.delivery_id
    )
    delete from webhook_deliveries d
    where d.id = any (array(select delivery_id from gone)) and d.state <> 'pending' and ${keep}
      and not exists (
        select 1 from webhook_attempts a where a.delivery_id = d.id and a.id not in (select id from gone)
      )`;
}

/** How much of the request body the log shows (the receiver got all of it). */
const REQUEST_EXCERPT_CHARS = 1024;
