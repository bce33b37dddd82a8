import { createProjectRepository } from '../repositories/projects.js';
import { notFound } from '../domain/errors.js';
import { decompressScene, type ProjectData } from '../domain/scene.js';
import { sceneReport, type SceneReport } from '../domain/scene-report.js';
import type { SceneWarning } from '../wire/configurator/index.js';
import type { ServiceDeps } from './service-deps.js';

/** The scene report of a project's current revision (docs/scene-format.md), for owners checking their scene data. */
export function createSceneReportService(deps: Pick<ServiceDeps, 'db'>) {
  const projects = createProjectRepository(deps.db);
  return {
    async report(workspaceId: string, projectId: string): Promise<SceneReport> {
      const row = await projects.get(workspaceId, projectId);
      if (!row) throw notFound('Project');
      return sceneReport(row.revision, decompressScene(row.scene));
    },

    /** The warnings the scene report would give for this data: what a save or a preview answers with. */
    async warningsFor(workspaceId: string, data: ProjectData): Promise<SceneWarning[]> {
      void workspaceId;
      return sceneReport(0, data).warnings;
    },
  };
}
