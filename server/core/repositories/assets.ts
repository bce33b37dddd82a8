import { and, count, eq, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../platform/db/client.js';
import { assets, workspaces, type Asset } from '../platform/db/schema/index.js';
import { afterCursor, toPage, type PageCursor } from './pagination.js';
import { notFound, quotaExceeded } from '../domain/errors.js';
import type { UrlSigner } from '../platform/storage/signed-urls.js';
import type { StorageDriver } from '../platform/storage/index.js';

/** Lifetime of the signed file URL in asset bodies (owner reads). */
export const ASSET_URL_SECONDS = 3600;

/** The values of a new asset row; id and storage key are chosen by the caller (the file is written under them). */
export type NewAsset = Omit<typeof assets.$inferInsert, 'workspaceId' | 'createdAt' | 'updatedAt'> & { id: string; storageKey: string };

/** The API body of an asset; the storage key never leaves the server, only a signed URL. */
export function toAssetBody(row: Asset, signer: UrlSigner) {
  return {
    id: row.id,
    name: row.name,
    fileName: row.fileName,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    sourceFormat: row.sourceFormat,
    url: signer.signFor(row.storageKey, ASSET_URL_SECONDS),
    modelInfo: row.modelInfo,
    externalSource: row.externalSource ?? null,
    readinessScore: row.readinessScore ?? null,
    readinessLevel: row.readinessLevel ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Assets, always scoped by workspace: an asset of another workspace simply does not exist. */
export function createAssetRepository(db: Db) {
  /** The plan's model limit and the assets held; `lock` takes the workspace row FOR UPDATE (inside a transaction). */
  async function quota(executor: Executor, workspaceId: string, lock: boolean) {
    const query = executor.select({ modelLimit: workspaces.modelLimit }).from(workspaces).where(eq(workspaces.id, workspaceId));
    const [workspace] = lock ? await query.for('update') : await query;
    if (!workspace) throw notFound('Workspace');
    const [{ used }] = await executor.select({ used: count() }).from(assets).where(eq(assets.workspaceId, workspaceId));
    return { limit: workspace.modelLimit, used };
  }

  /**
   * The authoritative quota check and the insert, in one transaction that locks the workspace
   * row, so concurrent uploads and imports cannot pass the limit together. `store` writes the
   * file once the quota is known to allow it; the caller deletes the file if this throws.
   */
  async function createWithinQuota(workspaceId: string, values: NewAsset, store: (tx: Tx) => Promise<void>): Promise<Asset> {
    return db.transaction(async (tx) => {
      const { limit, used } = await quota(tx, workspaceId, true);
      if (used >= limit) throw quotaExceeded(limit);
      await store(tx);
      const [row] = await tx.insert(assets).values({ ...values, workspaceId }).returning();
      return row;
    });
  }

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

    async get(workspaceId: string, id: string, executor: Executor = db) {
      const [row] = await executor.select().from(assets).where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id)));
      return row ?? null;
    },

    /** The cheap quota check, before an upload is read or checked: 403 quota_exceeded when the plan is full. */
    async assertBelowQuota(workspaceId: string) {
      const { limit, used } = await quota(db, workspaceId, false);
      if (used >= limit) throw quotaExceeded(limit);
    },

    createWithinQuota,

    /**
     * Saves a checked GLB as an asset: quota under the workspace lock, the file written at
     * `values.storageKey`, then the row. If anything fails the file is removed again, so a
     * refused or failed save leaves nothing behind. Uploads and library imports both use this.
     */
    async createWithFile(workspaceId: string, values: NewAsset, storage: StorageDriver, glb: Uint8Array): Promise<Asset> {
      try {
        return await createWithinQuota(workspaceId, values, () => storage.put(values.storageKey, glb, values.contentType ?? 'model/gltf-binary'));
      } catch (error) {
        // Best effort: the original error is what the caller must see.
        await storage.delete(values.storageKey).catch(() => {});
        throw error;
      }
    },

    /** Deletes the row; returns it (the caller removes the stored file) or null when there is none. */
    /**
     * Deletes the asset and bumps the workspace's assets revision in the same transaction: public
     * reads put it in their ETag, so no share keeps serving a signed URL of a deleted model.
     */
    async delete(workspaceId: string, id: string): Promise<Asset | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx.delete(assets).where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id))).returning();
        if (!row) return null;
        await tx.update(workspaces).set({ assetsRevision: sql`${workspaces.assetsRevision} + 1` }).where(eq(workspaces.id, workspaceId));
        return row;
      });
    },
  };
}

export type AssetRepository = ReturnType<typeof createAssetRepository>;
