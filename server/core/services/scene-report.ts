import { createProjectRepository } from '../repositories/projects.js';
import { createAssetRepository } from '../repositories/assets.js';
import { notFound } from '../domain/errors.js';
import { decompressScene, type ProjectData } from '../domain/scene.js';
import { sceneReport, type SceneReport } from '../domain/scene-report.js';
import { modelAssetIds } from '../domain/scene-names.js';
import type { SceneWarning } from '../wire/configurator/index.js';
import type { ServiceDeps } from './service-deps.js';

/**
 * The scene report of a project's current revision (docs/scene-format.md), for owners checking their scene data:
 * the parser's warnings, then the names checked against the stored outlines of the workspace's assets (one query,
 * no model file opened).
 */
export function createSceneReportService(deps: Pick<ServiceDeps, 'db'>) {
  const projects = createProjectRepository(deps.db);
  const assets = createAssetRepository(deps.db);

  const reportOf = async (workspaceId: string, revision: number, data: ProjectData) =>
    sceneReport(revision, data, await assets.outlineNames(workspaceId, modelAssetIds(data)));

  return {
    async report(workspaceId: string, projectId: string): Promise<SceneReport> {
      const row = await projects.get(workspaceId, projectId);
      if (!row) throw notFound('Project');
      return reportOf(workspaceId, row.revision, decompressScene(row.scene));
    },

    /** The warnings the scene report would give for this data: what a save or a preview answers with. */
    async warningsFor(workspaceId: string, data: ProjectData): Promise<SceneWarning[]> {
      return (await reportOf(workspaceId, 0, data)).warnings;
    },
  };
}
