import { createHash } from 'node:crypto';
import type { Project } from '../platform/db/schema/index.js';
import type { Tx } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/transactions.js';
import { createProjectRepository } from '../repositories/projects.js';
import { createProjectRevisionRepository, type SavedBy } from '../repositories/project-revisions.js';
import { emitEvent } from './events.js';
import type { PageCursor } from '../repositories/pagination.js';
import { notFound } from '../domain/errors.js';
import { revisionConflict, type RevisionPrecondition } from '../domain/revision-precondition.js';
import { decompressScene, normalizeData, type ProjectData } from '../domain/scene.js';
import { decodeImageDataUrl } from '../domain/submission-input.js';
import { storageKeys } from '../platform/storage/index.js';
import { MAX_THUMBNAIL_BYTES, MAX_THUMBNAIL_SIDE } from '../wire/project-thumbnail.js';
import type { SceneWarning } from '../wire/configurator/index.js';
import { deleteFiles, noticeShareChange, nudgeDeliveries, type ServiceDeps } from './service-deps.js';

export type { SavedBy };

const THUMBNAIL_LIMITS = {
  maxBytes: MAX_THUMBNAIL_BYTES,
  maxBytesText: `${MAX_THUMBNAIL_BYTES / 1024} KB`,
  maxSide: MAX_THUMBNAIL_SIDE,
  maxPixels: MAX_THUMBNAIL_SIDE * MAX_THUMBNAIL_SIDE,
};

export interface ProjectInput {
  name: string;
  type: string;
  /** As the client sent it: only the five keys of a project's data are kept (docs/scene-format.md). */
  data?: Partial<ProjectData>;
}

/** A saved project and the scene report's warnings about what was saved (a save is never refused for one). */
export interface SavedProject {
  project: Project;
  warnings: SceneWarning[];
}

/** Who saves, and the If-Match precondition the save honours (none: the last write wins). */
export interface SaveOptions {
  savedBy: SavedBy;
  expected?: RevisionPrecondition;
}

export interface ProjectServiceParts {
  /** The scene report's warnings for data of the workspace (scene-report.ts). */
  warningsFor(workspaceId: string, data: ProjectData): Promise<SceneWarning[]>;
}

interface StoredInput {
  name: string;
  type: string;
  data: ProjectData;
}

/**
 * Owner projects (docs/api.md). The scene is stored compressed; the revision bumps on every change and
 * each saved revision is kept (the newest 50) in the same transaction.
 */
export function createProjectService(deps: ServiceDeps, parts: ProjectServiceParts) {
  const repo = createProjectRepository(deps.db);
  const revisions = createProjectRevisionRepository(deps.db);

  function toStored(input: ProjectInput): StoredInput {
    return { name: input.name, type: input.type, data: normalizeData(input.data) };
  }

  const recordRevision = (tx: Tx, workspaceId: string, row: Project, savedBy: SavedBy) =>
    revisions.record(tx, {
      workspaceId,
      projectId: row.id,
      revision: row.revision,
      name: row.name,
      type: row.type,
      scene: row.scene,
      savedAt: row.updatedAt,
      savedBy,
    });

  /** Replaces name, type and scene under the precondition: project.updated, and a new public payload for its share. */
  async function save(
    { tx, afterCommit }: UnitOfWork,
    workspaceId: string,
    id: string,
    stored: StoredInput,
    options: SaveOptions,
  ): Promise<Project> {
    const updated = await repo.replace(tx, workspaceId, id, stored, options.expected);
    if (!updated) {
      const current = await repo.revision(workspaceId, id, tx);
      if (current === null) throw notFound('Project');
      throw revisionConflict(current);
    }
    await recordRevision(tx, workspaceId, updated, options.savedBy);
    const emitted = await emitEvent(deps, tx, {
      workspaceId,
      projectId: updated.id,
      type: 'project.updated',
      data: { projectId: updated.id, name: updated.name, revision: updated.revision },
    });
    afterCommit(nudgeDeliveries(deps, emitted));
    afterCommit(noticeShareChange(deps, { reason: 'project', projectId: id, workspaceId }));
    return updated;
  }

  /** Points the project at `key` (null: none); the replaced picture goes after the commit. */
  async function pointThumbnail(workspaceId: string, id: string, key: string | null) {
    await deps.inTransaction(async ({ tx, afterCommit }) => {
      const result = await repo.setThumbnail(tx, workspaceId, id, key);
      if (!result) throw notFound('Project');
      if (result.previousKey && result.previousKey !== key) afterCommit(deleteFiles(deps, [result.previousKey]));
    });
  }

  const withWarnings = async (workspaceId: string, project: Project, data: ProjectData): Promise<SavedProject> => ({
    project,
    warnings: await parts.warningsFor(workspaceId, data),
  });

  return {
    async create(workspaceId: string, input: ProjectInput, savedBy: SavedBy): Promise<SavedProject> {
      const stored = toStored(input);
      const row = await deps.inTransaction(async ({ tx }) => {
        const created = await repo.create(workspaceId, stored, tx);
        await recordRevision(tx, workspaceId, created, savedBy);
        return created;
      });
      return withWarnings(workspaceId, row, stored.data);
    },

    list: (workspaceId: string, limit: number, cursor: PageCursor | null) => repo.list(workspaceId, limit, cursor),

    async get(workspaceId: string, id: string): Promise<Project> {
      const row = await repo.get(workspaceId, id);
      if (!row) throw notFound('Project');
      return row;
    },

    /** Replaces name, type and scene; 412 when `expected` names another revision, and nothing is written. */
    async replace(workspaceId: string, id: string, input: ProjectInput, options: SaveOptions): Promise<SavedProject> {
      const stored = toStored(input);
      const row = await deps.inTransaction((unit) => save(unit, workspaceId, id, stored, options));
      return withWarnings(workspaceId, row, stored.data);
    },

    /** Saves a kept revision's name, type and scene as a new revision, exactly as a replace would. */
    async restore(workspaceId: string, id: string, revision: number, options: SaveOptions): Promise<SavedProject> {
      const { row, data } = await deps.inTransaction(async (unit) => {
        const kept = await revisions.get(workspaceId, id, revision, unit.tx);
        if (!kept) throw notFound('Revision');
        const stored = { name: kept.name, type: kept.type, data: decompressScene(kept.scene) };
        return { row: await save(unit, workspaceId, id, stored, options), data: stored.data };
      });
      return withWarnings(workspaceId, row, data);
    },

    /**
     * Stores the console's picture of the project (a PNG, JPEG or WebP data URL) and answers its storage key. The
     * object is written before the row names it; a write the row never names is the storage sweeper's to remove.
     */
    async setThumbnail(workspaceId: string, id: string, image: string): Promise<string> {
      if (!(await repo.exists(workspaceId, id))) throw notFound('Project');
      const { mimeType, data } = decodeImageDataUrl(image, 'body.image', THUMBNAIL_LIMITS);
      const hash = createHash('sha256').update(data).digest('base64url').slice(0, 22);
      const key = storageKeys.projectThumbnail(workspaceId, id, hash, mimeType.slice('image/'.length));
      await deps.storage.put(key, data, { contentType: mimeType });
      await pointThumbnail(workspaceId, id, key);
      return key;
    },

    clearThumbnail: (workspaceId: string, id: string) => pointThumbnail(workspaceId, id, null),

    /** Deletes the project with its share, requests and events; their files go after the commit. */
    async delete(workspaceId: string, id: string): Promise<void> {
      const deleted = await deps.inTransaction(async ({ tx, afterCommit }) => {
        const result = await repo.delete(tx, workspaceId, id);
        if (!result) return null;
        afterCommit(noticeShareChange(deps, { reason: 'project', projectId: id, workspaceId }));
        afterCommit(deleteFiles(deps, result.storageKeys));
        return result;
      });
      if (!deleted) throw notFound('Project');
    },
  };
}
