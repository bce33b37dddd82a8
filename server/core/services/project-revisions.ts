import { createProjectRevisionRepository } from '../repositories/project-revisions.js';
import { createProjectRepository } from '../repositories/projects.js';
import { notFound } from '../domain/errors.js';
import { decompressScene, type ProjectData } from '../domain/scene.js';
import type { ServiceDeps } from './service-deps.js';

export interface RevisionSummary {
  revision: number;
  savedAt: Date;
  /** The person whose credentials saved it (an API key's creator); null when unknown or since deleted. */
  savedBy: { id: string; email: string | null } | null;
}

export interface KeptRevision {
  revision: number;
  name: string;
  type: string;
  data: ProjectData;
  savedAt: Date;
}

/** Reading a project's kept revisions (restoring one is a save: projects.ts). */
export function createProjectRevisionService(deps: Pick<ServiceDeps, 'db'>) {
  const revisions = createProjectRevisionRepository(deps.db);
  const projects = createProjectRepository(deps.db);
  return {
    /** The kept revisions, newest first. */
    async list(workspaceId: string, projectId: string): Promise<RevisionSummary[]> {
      if ((await projects.revision(workspaceId, projectId)) === null) throw notFound('Project');
      const rows = await revisions.list(workspaceId, projectId);
      return rows.map((row) => ({
        revision: row.revision,
        savedAt: row.savedAt,
        savedBy: row.savedById ? { id: row.savedById, email: row.savedByEmail } : null,
      }));
    },

    /** One kept revision's name, type and data; 404 past the kept ones. */
    async get(workspaceId: string, projectId: string, revision: number): Promise<KeptRevision> {
      const row = await revisions.get(workspaceId, projectId, revision);
      if (!row) throw notFound('Revision');
      return {
        revision: row.revision,
        name: row.name,
        type: row.type,
        data: decompressScene(row.scene),
        savedAt: row.savedAt,
      };
    },
  };
}
