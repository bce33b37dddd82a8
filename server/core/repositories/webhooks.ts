import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { projects, webhooks, type Webhook, type WebhookDisabledReason } from '../platform/db/schema/index.js';

/** A webhook as the owner sets it (PUT). `secret` undefined on update keeps the stored one. */
export interface WebhookInput {
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret?: string;
}

/** Webhook configurations, always scoped by workspace and project. */
export function createWebhookRepository(db: Db) {
  const scope = (workspaceId: string, projectId: string) =>
    and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.projectId, projectId));

  return {
    list: (workspaceId: string, projectId: string): Promise<Webhook[]> =>
      db
        .select()
        .from(webhooks)
        .where(scope(workspaceId, projectId))
        .orderBy(asc(webhooks.createdAt), asc(webhooks.id)),

    async get(workspaceId: string, projectId: string, id: string, executor: Executor = db): Promise<Webhook | null> {
      const [row] = await executor
        .select()
        .from(webhooks)
        .where(and(scope(workspaceId, projectId), eq(webhooks.id, id)));
      return row ?? null;
    },

    /**
     * Locks the project row (so concurrent creates count one after the other); false when it is not in the workspace.
     */
    async lockProject(tx: Executor, workspaceId: string, projectId: string): Promise<boolean> {
      const [row] = await tx
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, projectId)))
        .for('update');
      return Boolean(row);
    },

    async count(tx: Executor, projectId: string): Promise<number> {
      const [row] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.projectId, projectId));
      return row.n;
    },

    async insert(
      tx: Executor,
      workspaceId: string,
      projectId: string,
      id: string,
      input: WebhookInput & { secret: string },
    ): Promise<Webhook> {
      const [row] = await tx
        .insert(webhooks)
        .values({ workspaceId, projectId, id, ...input })
        .returning();
      return row;
    },

    /** Replaces the settings; turning it on clears a platform's disable and the failure streak. */
    async update(
      tx: Executor,
      workspaceId: string,
      projectId: string,
      id: string,
      input: WebhookInput,
    ): Promise<Webhook | null> {
      const { secret, ...rest } = input;
      const [row] = await tx
        .update(webhooks)
        .set({
          ...rest,
          ...(secret === undefined ? {} : { secret }),
          disabledReason: null,
          disabledAt: input.enabled ? null : sql`coalesce(${webhooks.disabledAt}, now())`,
          failingSince: input.enabled ? null : webhooks.failingSince,
          updatedAt: new Date(),
        })
        .where(and(scope(workspaceId, projectId), eq(webhooks.id, id)))
        .returning();
      return row ?? null;
    },

    async delete(workspaceId: string, projectId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(webhooks)
        .where(and(scope(workspaceId, projectId), eq(webhooks.id, id)))
        .returning({ id: webhooks.id });
      return rows.length > 0;
    },

    /** The platform switches a webhook off (410, or five days of failures), visibly in reads. */
    async disable(tx: Executor, projectId: string, id: string, reason: WebhookDisabledReason): Promise<void> {
      await tx
        .update(webhooks)
        .set({ enabled: false, disabledReason: reason, disabledAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, id), eq(webhooks.enabled, true)));
    },

    /**
     * Notes an attempt's outcome in the failure streak and answers when the streak started (null: none). Writes
     * only when the streak changes, so a busy healthy webhook's row is not contended.
     */
    async noteOutcome(tx: Executor, projectId: string, id: string, delivered: boolean): Promise<Date | null> {
      const target = and(eq(webhooks.projectId, projectId), eq(webhooks.id, id));
      if (delivered) {
        await tx
          .update(webhooks)
          .set({ failingSince: null })
          .where(and(target, sql`${webhooks.failingSince} is not null`));
        return null;
      }
      const [started] = await tx
        .update(webhooks)
        .set({ failingSince: sql`now()` })
        .where(and(target, sql`${webhooks.failingSince} is null`))
        .returning({ failingSince: webhooks.failingSince });
      if (started) return started.failingSince;
      const [row] = await tx.select({ failingSince: webhooks.failingSince }).from(webhooks).where(target);
      return row?.failingSince ?? null;
    },
  };
}
