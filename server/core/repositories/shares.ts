import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { newShareToken } from '../domain/share-token.js';
import { assets, projects, shareSettings, workspaces, type ShareSettingsRow } from '../platform/db/schema/index.js';

/**
 * Share settings (docs/api.md, Share settings): one row per project, created lazily with the defaults.
 * Owner methods take the workspace id, so a project of another workspace does not exist.
 */

/** The columns an owner change may set. */
export type SharePatch = Partial<
  Pick<ShareSettingsRow, 'isEnabled' | 'shareToken' | 'domainRestrictions' | 'requirePassword' | 'passwordHash'>
>;

/** What the public routes need to decide, without the scene. */
export interface PublicShareRow {
  projectId: string;
  workspaceId: string;
  name: string;
  type: string;
  projectRevision: number;
  billingStatus: 'active' | 'locked';
  isEnabled: boolean;
  shareToken: string;
  domainRestrictions: string[];
  requirePassword: boolean;
  passwordHash: string | null;
  shareRevision: number;
  /** Bumped when an asset of the workspace is deleted (signed model URLs may change). */
  assetsRevision: number;
}

export function createShareRepository(db: Db) {
  /**
   * The project's settings row, created with the defaults when missing; null when the project is not in the workspace.
   */
  async function ensure(executor: Executor, workspaceId: string, projectId: string, lock: boolean) {
    const [project] = await executor
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, projectId)));
    if (!project) return null;
    await executor.insert(shareSettings).values({ projectId, shareToken: newShareToken() }).onConflictDoNothing();
    const query = executor.select().from(shareSettings).where(eq(shareSettings.projectId, projectId));
    const [row] = lock ? await query.for('update') : await query;
    return { project, row };
  }

  return {
    async get(workspaceId: string, projectId: string): Promise<ShareSettingsRow | null> {
      return (await ensure(db, workspaceId, projectId, false))?.row ?? null;
    },

    /**
     * The settings row locked for a change (created with the defaults when missing) and the project's name; null when
     * the project is not in the workspace.
     */
    lockForChange: (tx: Executor, workspaceId: string, projectId: string) => ensure(tx, workspaceId, projectId, true),

    /** Applies a change and bumps the revision (an ETag input). */
    async update(tx: Executor, projectId: string, changes: SharePatch): Promise<ShareSettingsRow> {
      const [updated] = await tx
        .update(shareSettings)
        .set({ ...changes, revision: sql`${shareSettings.revision} + 1`, updatedAt: new Date() })
        .where(eq(shareSettings.projectId, projectId))
        .returning();
      return updated;
    },

    /** The public lookup: project, share and billing in one query, no scene. */
    async findPublic(projectId: string): Promise<PublicShareRow | null> {
      const [row] = await db
        .select({
          projectId: projects.id,
          workspaceId: projects.workspaceId,
          name: projects.name,
          type: projects.type,
          projectRevision: projects.revision,
          billingStatus: workspaces.billingStatus,
          isEnabled: shareSettings.isEnabled,
          shareToken: shareSettings.shareToken,
          domainRestrictions: shareSettings.domainRestrictions,
          requirePassword: shareSettings.requirePassword,
          passwordHash: shareSettings.passwordHash,
          shareRevision: shareSettings.revision,
          assetsRevision: workspaces.assetsRevision,
        })
        .from(projects)
        .innerJoin(shareSettings, eq(shareSettings.projectId, projects.id))
        .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
        .where(eq(projects.id, projectId));
      return row ?? null;
    },

    /** The compressed scene with the name, type and revision it belongs to. */
    async scene(
      workspaceId: string,
      projectId: string,
    ): Promise<{ name: string; type: string; scene: Buffer; revision: number } | null> {
      const [row] = await db
        .select({ name: projects.name, type: projects.type, scene: projects.scene, revision: projects.revision })
        .from(projects)
        .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, projectId)));
      return row ?? null;
    },

    /**
     * assetId → the key of the file shoppers get (the delivery file once made, else the original), for the given
     * assets of the workspace (others' assets are never served); `unasked`: those never asked for a delivery file.
     */
    async assetKeys(
      workspaceId: string,
      assetIds: string[],
    ): Promise<{ keys: Map<string, string>; unasked: string[] }> {
      if (assetIds.length === 0) return { keys: new Map(), unasked: [] };
      const rows = await db
        .select({
          id: assets.id,
          key: sql<string>`coalesce(${assets.deliveryStorageKey}, ${assets.storageKey})`,
          unasked: sql<boolean>`${assets.deliveryStatus} is null`,
        })
        .from(assets)
        .where(and(eq(assets.workspaceId, workspaceId), inArray(assets.id, assetIds)));
      return {
        keys: new Map(rows.map((r) => [r.id, r.key])),
        unasked: rows.filter((r) => r.unasked).map((r) => r.id),
      };
    },
  };
}
