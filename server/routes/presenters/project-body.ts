import type { Project } from '../../core/platform/db/schema/index.js';
import { decompressScene } from '../../core/domain/scene.js';

/** A project as the owner routes answer it (contract section 3): the scene decompressed, dates as ISO strings. */
export function toProjectBody(row: Project) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    type: row.type,
    revision: row.revision,
    data: decompressScene(row.scene),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
