import { and, count, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { assets, workspaces, type Asset } from '../platform/db/schema/index.js';
import { afterCursor, toPage, type PageCursor } from './pagination.js';
import type { Outline } from '../wire/outline.js';
import type { OutlineNames } from '../domain/scene-names.js';

/** The values of a new asset row; id and storage key are chosen by the caller (the file is written under them). */
export type NewAsset = Omit<typeof assets.$inferInsert, 'workspaceId' | 'createdAt' | 'updatedAt'> & {
  id: string;
  storageKey: string;
};

export type DeliveryStatus = NonNullable<Asset['deliveryStatus']>;

/** Every column but the outline (up to 10,000 nodes): what listing and reading an asset select. */
const { outline: _outline, ...assetColumns } = getTableColumns(assets);
export { assetColumns };

/** The names of an outline, unnamed ones left out: `jsonb_path_query_array` reads them without the rest. */
const namesAt = (path: string) =>
  sql<string[]>`coalesce(jsonb_path_query_array(${assets.outline}, ${`${path} ? (@.type() == "string")`}), '[]')`;

/** Assets, always scoped by workspace: an asset of another workspace simply does not exist. */
export function createAssetRepository(db: Db) {
  return {
    async list(workspaceId: string, limit: number, cursor: PageCursor | null) {
      const page = afterCursor(assets.createdAt, assets.id, cursor);
      const rows = await db
        .select(assetColumns)
        .from(assets)
        .where(and(eq(assets.workspaceId, workspaceId), page.where))
        .orderBy(...page.orderBy)
        .limit(limit + 1);
      return toPage(rows, limit);
    },

    async get(workspaceId: string, id: string, executor: Executor = db): Promise<Asset | null> {
      const [row] = await executor
        .select(assetColumns)
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

    /** The stored outline (null before it is computed) and where the file lies; null for no such asset. */
    async outline(workspaceId: string, id: string): Promise<{ outline: Outline | null; storageKey: string } | null> {
      const [row] = await db
        .select({ outline: assets.outline, storageKey: assets.storageKey })
        .from(assets)
        .where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id)));
      return row ?? null;
    },

    /** Keeps a computed outline; an outline already stored stays (the same file gives the same outline). */
    async setOutline(workspaceId: string, id: string, outline: Outline): Promise<void> {
      await db
        .update(assets)
        .set({ outline })
        .where(and(eq(assets.workspaceId, workspaceId), eq(assets.id, id), isNull(assets.outline)));
    },

    /**
     * The outline names of the given assets of the workspace, in one query; an asset of another workspace, a
     * deleted one or one without a stored outline is absent.
     */
    async outlineNames(workspaceId: string, ids: string[]): Promise<Map<string, OutlineNames>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({
          id: assets.id,
          fileName: assets.fileName,
          nodes: namesAt('$.nodes[*].name'),
          materials: namesAt('$.materials[*]'),
          variants: namesAt('$.variants[*]'),
          animations: namesAt('$.animations[*].name'),
        })
        .from(assets)
        .where(and(eq(assets.workspaceId, workspaceId), inArray(assets.id, ids), sql`${assets.outline} is not null`));
      return new Map(rows.map(({ id, ...names }) => [id, names]));
    },

    /** What a delivery job reads: where the original lies and how large it is; null for a deleted asset. */
    async deliverySource(assetId: string) {
      const [row] = await db
        .select({ workspaceId: assets.workspaceId, storageKey: assets.storageKey, sizeBytes: assets.sizeBytes })
        .from(assets)
        .where(eq(assets.id, assetId));
      return row ?? null;
    },

    /**
     * Records a delivery job's outcome for the asset whose original is still `storageKey`. When what shoppers get
     * changes (a new delivery file, or the original again), the workspace's assets revision goes up: public reads put
     * it in their ETag. The delivery file it had before, if any; null when the asset is gone.
     */
    async setDelivery(
      tx: Executor,
      assetId: string,
      storageKey: string,
      delivery: { status: DeliveryStatus; storageKey: string | null; sizeBytes: number | null; reason: string | null },
    ): Promise<{ previousKey: string | null } | null> {
      const [before] = await tx
        .select({ workspaceId: assets.workspaceId, deliveryStorageKey: assets.deliveryStorageKey })
        .from(assets)
        .where(and(eq(assets.id, assetId), eq(assets.storageKey, storageKey)))
        .for('update');
      if (!before) return null;
      await tx
        .update(assets)
        .set({
          deliveryStatus: delivery.status,
          deliveryStorageKey: delivery.storageKey,
          deliverySizeBytes: delivery.sizeBytes,
          deliveryReason: delivery.reason,
        })
        .where(eq(assets.id, assetId));
      if (delivery.status === 'ready' || before.deliveryStorageKey !== null)
        await tx
          .update(workspaces)
          .set({ assetsRevision: sql`${workspaces.assetsRevision} + 1` })
          .where(eq(workspaces.id, before.workspaceId));
      return { previousKey: before.deliveryStorageKey };
    },

    /**
     * Marks the given assets `pending` and returns the ids marked: with `onlyUnasked`, only those never asked for (a
     * lazy fill); else all of them (asking again for one being made adds nothing: its job id is taken). A delivery
     * file already made stays served until the job records the new outcome.
     */
    async askDelivery(tx: Executor, ids: string[], onlyUnasked: boolean): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await tx
        .update(assets)
        .set({ deliveryStatus: 'pending' })
        .where(and(inArray(assets.id, ids), onlyUnasked ? isNull(assets.deliveryStatus) : undefined))
        .returning({ id: assets.id });
      return rows.map((row) => row.id);
    },

    /** Up to `limit` ids of assets without a delivery file nor a reason to go without (never asked, or failed). */
    async withoutDelivery(limit: number, afterId: string | null): Promise<string[]> {
      const rows = await db
        .select({ id: assets.id })
        .from(assets)
        .where(
          and(
            or(isNull(assets.deliveryStatus), eq(assets.deliveryStatus, 'failed')),
            afterId ? sql`${assets.id} > ${afterId}` : undefined,
          ),
        )
        .orderBy(assets.id)
        .limit(limit);
      return rows.map((row) => row.id);
    },

    async insert(tx: Executor, workspaceId: string, values: NewAsset): Promise<Asset> {
      const [row] = await tx
        .insert(assets)
        .values({ ...values, workspaceId })
        .returning(assetColumns);
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
        .returning(assetColumns);
      if (!row) return null;
      await tx
        .update(workspaces)
        .set({ assetsRevision: sql`${workspaces.assetsRevision} + 1` })
        .where(eq(workspaces.id, workspaceId));
      return row;
    },
  };
}
