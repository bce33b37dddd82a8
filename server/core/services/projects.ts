import type { Project } from '../platform/db/schema/index.js';
import { createProjectRepository } from '../repositories/projects.js';
import { emitEvent } from './events.js';
import type { PageCursor } from '../repositories/pagination.js';
import { notFound } from '../domain/errors.js';
import { assertUniqueModelIds, normalizeData, type ProjectData } from '../domain/scene.js';
import { deleteFiles, noticeShareChange, nudgeDeliveries, type ServiceDeps } from './service-deps.js';

export interface ProjectInput {
  name: string;
  type: string;
  /** As the client sent it: only the five keys of contract section 3 are kept. */
  data?: Partial<ProjectData>;
}

/** Owner projects (contract section 3). The scene is stored compressed; the revision bumps on every change. */
export function createProjectService(deps: ServiceDeps) {
  const repo = createProjectRepository(deps.db);

  function toStored(input: ProjectInput) {
    assertUniqueModelIds(input.data?.models as Array<{ id: string }> | undefined);
    return { name: input.name, type: input.type, data: normalizeData(input.data) };
  }

  return {
    async create(workspaceId: string, input: ProjectInput): Promise<Project> {
      return repo.create(workspaceId, toStored(input));
    },

    list: (workspaceId: string, limit: number, cursor: PageCursor | null) => repo.list(workspaceId, limit, cursor),

    async get(workspaceId: string, id: string): Promise<Project> {
      const row = await repo.get(workspaceId, id);
      if (!row) throw notFound('Project');
      return row;
    },

    /** Replaces name, type and scene: project.updated, and a new public payload for its share. */
    async replace(workspaceId: string, id: string, input: ProjectInput): Promise<Project> {
      const stored = toStored(input);
      const row = await deps.inTransaction(async ({ tx, afterCommit }) => {
        const updated = await repo.replace(tx, workspaceId, id, stored);
        if (!updated) return null;
        const emitted = await emitEvent(tx, {
          workspaceId,
          projectId: updated.id,
          type: 'project.updated',
          data: { projectId: updated.id, name: updated.name, revision: updated.revision },
        });
        afterCommit(nudgeDeliveries(deps, emitted));
        afterCommit(noticeShareChange(deps, { reason: 'project', projectId: id, workspaceId }));
        return updated;
      });
      if (!row) throw notFound('Project');
      return row;
    },

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
