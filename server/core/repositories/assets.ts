import { and, count, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { assets, workspaces, type Asset } from '../platform/db/schema/index.js';
import { afterCursor, toPage, type PageCursor } from './pagination.js';

/** The values of a new asset row; id and storage key are chosen by the caller (the file is written under them). */
export type NewAsset = Omit<typeof assets.$inferInsert, 'workspaceId' | 'createdAt' | 'updatedAt'> & {
  id: string;
  storageKey: string;
};

/** Assets, always scoped by workspace: an asset of another workspace simply does not exist. */
export function createAssetRepository(db: Db) {
  return {
    async list(workspaceId: string, limit: number, cursor: PageCursor | null) {
      const page = afterCursor(assets.createdAt, assets.id, cursor);
      const rows = await db
        .select()
        .from(assets)
        .where(and(eq(assets.workspaceId, workspaceId), page.where))
        .orderBy(...page.orderBy)
        .limit(limit + 1);
      return toPage(rows, limit);
    },

    async get(workspaceId: string, id: string, executor: Executor = db): Promise<Asset | null> {
      const [row] = await executor
        .select()
        .from(assets)
        .where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id)));
      return row ?? null;
    },

    /**
     * The plan's model limit and assets held; null when the workspace does not exist. `lock` takes the
     * workspace row FOR UPDATE so concurrent uploads and imports cannot pass the limit together.
     */
    async quota(
      executor: Executor,
      workspaceId: string,
      lock: boolean,
    ): Promise<{ limit: number; used: number } | null> {
      const query = executor
        .select({ modelLimit: workspaces.modelLimit })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId));
      const [workspace] = lock ? await query.for('update') : await query;
      if (!workspace) return null;
      const [{ used }] = await executor
        .select({ used: count() })
        .from(assets)
        .where(eq(assets.workspaceId, workspaceId));
      return { limit: workspace.modelLimit, used };
    },

    async insert(tx: Executor, workspaceId: string, values: NewAsset): Promise<Asset> {
      const [row] = await tx
        .insert(assets)
        .values({ ...values, workspaceId })
        .returning();
      return row;
    },

    /**
     * Deletes the asset and bumps the workspace's assets revision: public reads put it in their
     * ETag, so no share keeps serving a signed URL of a deleted model.
     */
    async delete(tx: Executor, workspaceId: string, id: string): Promise<Asset | null> {
      const [row] = await tx
        .delete(assets)
        .where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id)))
        .returning();
      if (!row) return null;
      await tx
        .update(workspaces)
        .set({ assetsRevision: sql`${workspaces.assetsRevision} + 1` })
        .where(eq(workspaces.id, workspaceId));
      return row;
    },
  };
}
