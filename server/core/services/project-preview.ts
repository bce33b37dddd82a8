import { createProjectRepository } from '../repositories/projects.js';
import { notFound } from '../domain/errors.js';
import { normalizeData, type ProjectData } from '../domain/scene.js';
import type { SceneWarning } from '../wire/configurator/index.js';
import type { PublicPayload, createPublicShareService } from './public-share/public-share.js';
import type { ServiceDeps } from './service-deps.js';

export interface ProjectPreviewParts {
  publicShare: Pick<ReturnType<typeof createPublicShareService>, 'previewPayload'>;
  /** The scene report's warnings for data of the workspace (scene-report.ts). */
  warningsFor(workspaceId: string, data: ProjectData): Promise<SceneWarning[]>;
}

export interface ProjectPreview {
  payload: PublicPayload;
  warnings: SceneWarning[];
}

/**
 * An owner's unsaved data as the public read would answer it, with the warnings a save would give. Nothing is
 * written and no public budget, event or analytics is touched; whether the project is shared does not matter.
 */
export function createProjectPreviewService(deps: Pick<ServiceDeps, 'db'>, parts: ProjectPreviewParts) {
  const projects = createProjectRepository(deps.db);
  return {
    async preview(workspaceId: string, projectId: string, input: Partial<ProjectData>): Promise<ProjectPreview> {
      const project = await projects.identity(workspaceId, projectId);
      if (!project) throw notFound('Project');
      // The rules a save applies, so the preview shows what saving this data would serve.
      const data = normalizeData(input);
      const [payload, warnings] = await Promise.all([
        parts.publicShare.previewPayload({ workspaceId, projectId: project.id }, project, data),
        parts.warningsFor(workspaceId, data),
      ]);
      return { payload, warnings };
    },
  };
}
