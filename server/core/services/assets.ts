import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Asset } from '../platform/db/schema/index.js';
import type { Tx } from '../platform/db/client.js';
import { storageKeys } from '../platform/storage/index.js';
import { createAssetRepository, type NewAsset } from '../repositories/assets.js';
import type { PageCursor } from '../repositories/pagination.js';
import { notFound, quotaExceeded } from '../domain/errors.js';
import type { CheckedModel } from '../domain/models/check-model-file.js';
import type { Outline } from '../wire/outline.js';
import { deleteFiles, noticeShareChange, type ServiceDeps } from './service-deps.js';
import { queueDeliveries } from './asset-delivery.js';

/** The model check an upload runs (safe unzip, Khronos validator, conversion to GLB, outline). */
export type CheckModel = (bytes: Uint8Array, fileName: string) => Promise<CheckedModel>;

/** A stored GLB's outline, off the event loop (the CPU pool): for assets saved before outlines existed. */
export type OutlineModel = (glb: Uint8Array) => Promise<Outline>;

export interface AssetUpload {
  bytes: Buffer;
  /** The client's file name, reduced to its last path segment. */
  fileName: string;
  /** The display name. */
  name: string;
  createdBy: string | null;
}

export interface CreateWithFileOptions {
  /** Runs first in the saving transaction; throwing refuses the save (nothing written). */
  beforeWrite?(tx: Tx): Promise<void>;
  /** Runs in the same transaction after the row is inserted (an import job completing with it). */
  inTransaction?(tx: Tx, asset: Asset): Promise<void>;
}

/** The workspace's 3D asset library (docs/api.md, Projects and assets): uploads and imports run the same checks. */
export function createAssetService(deps: ServiceDeps, options: { checkModel: CheckModel; outlineModel: OutlineModel }) {
  const repo = createAssetRepository(deps.db);
  const { checkModel, outlineModel } = options;
  /** Outlines being computed for assets saved before outlines, by asset id. */
  const filling = new Map<string, Promise<Outline>>();

  async function assertBelowQuota(workspaceId: string): Promise<void> {
    const quota = await repo.quota(deps.db, workspaceId, false);
    if (!quota) throw notFound('Workspace');
    if (quota.used >= quota.limit) throw quotaExceeded(quota.limit);
  }

  /**
   * Saves a checked GLB as an asset: quota under the workspace lock, file written before the row commits.
   * On any failure the file is removed again, so a failed save leaves nothing behind.
   */
  async function createWithFile(
    workspaceId: string,
    values: NewAsset,
    glb: Uint8Array,
    options: CreateWithFileOptions = {},
  ): Promise<Asset> {
    try {
      return await deps.inTransaction(async ({ tx, afterCommit }) => {
        // First, so that a refusal (an import no longer running) costs no quota lock and no write.
        await options.beforeWrite?.(tx);
        const quota = await repo.quota(tx, workspaceId, true);
        if (!quota) throw notFound('Workspace');
        if (quota.used >= quota.limit) throw quotaExceeded(quota.limit);
        await deps.storage.put(values.storageKey, glb, { contentType: values.contentType ?? 'model/gltf-binary' });
        const row = await repo.insert(tx, workspaceId, { ...values, deliveryStatus: 'pending' });
        await queueDeliveries(deps, tx, afterCommit, [row.id]);
        await options.inTransaction?.(tx, row);
        return row;
      });
    } catch (error) {
      // Best effort: the original error is what the caller must see.
      await deps.storage.delete(values.storageKey).catch(() => {});
      throw error;
    }
  }

  return {
    /** The cheap quota check, before an upload is read or checked: 403 quota_exceeded when the plan is full. */
    assertBelowQuota,
    createWithFile,

    /** Checks an uploaded model and stores it as a GLB asset; the file is written only once every check passed. */
    async upload(workspaceId: string, upload: AssetUpload): Promise<Asset> {
      const checked = await checkModel(upload.bytes, upload.fileName);
      const id = randomUUID();
      return createWithFile(
        workspaceId,
        {
          id,
          storageKey: storageKeys.asset(workspaceId, id),
          name: upload.name,
          fileName: `${path.parse(upload.fileName).name || 'model'}.glb`,
          contentType: 'model/gltf-binary',
          sizeBytes: checked.glb.byteLength,
          sourceFormat: checked.sourceFormat,
          modelInfo: checked.info,
          outline: checked.outline,
          createdBy: upload.createdBy,
        },
        checked.glb,
      );
    },

    list: (workspaceId: string, limit: number, cursor: PageCursor | null) => repo.list(workspaceId, limit, cursor),

    async get(workspaceId: string, id: string): Promise<Asset> {
      const row = await repo.get(workspaceId, id);
      if (!row) throw notFound('Asset');
      return row;
    },

    /**
     * The asset's outline (docs/api.md, "Model outlines and names checked"). One saved before outlines existed gets
     * it now, from its stored file, and keeps it.
     */
    async outline(workspaceId: string, id: string): Promise<Outline> {
      const row = await repo.outline(workspaceId, id);
      if (!row) throw notFound('Asset');
      if (row.outline) return row.outline;
      // Requests for the same asset at once share one read of its file (up to 50 MB) and one computation.
      let pending = filling.get(id);
      if (!pending) {
        pending = (async () => {
          const outline = await outlineModel(await deps.storage.read(row.storageKey));
          await repo.setOutline(workspaceId, id, outline);
          return outline;
        })().finally(() => filling.delete(id));
        filling.set(id, pending);
      }
      return pending;
    },

    /** Deletes the asset; its file goes after the commit, and public shares drop its signed URL. */
    async delete(workspaceId: string, id: string): Promise<void> {
      const row = await deps.inTransaction(async ({ tx, afterCommit }) => {
        const deleted = await repo.delete(tx, workspaceId, id);
        if (!deleted) return null;
        afterCommit(noticeShareChange(deps, { reason: 'asset', workspaceId }));
        afterCommit(
          deleteFiles(deps, [deleted.storageKey, ...(deleted.deliveryStorageKey ? [deleted.deliveryStorageKey] : [])]),
        );
        return deleted;
      });
      if (!row) throw notFound('Asset');
    },
  };
}

export type AssetService = ReturnType<typeof createAssetService>;
