import type { Project } from '../../core/platform/db/schema/index.js';
import { decompressScene } from '../../core/domain/scene.js';
import type { SceneWarning } from '../../core/wire/configurator/index.js';
import type { UrlSigner } from '../../core/platform/storage/signed-urls.js';

/** A thumbnail's URL, stable within a day so the console's images stay cached; null without a thumbnail. */
export const thumbnailUrlOf = (key: string | null, signer: UrlSigner) => (key ? signer.signModel(key) : null);

/** A project as the owner routes answer it (docs/api.md, Projects and assets): scene decompressed, ISO dates. */
export function toProjectBody(row: Project, signer: UrlSigner) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    type: row.type,
    revision: row.revision,
    thumbnailUrl: thumbnailUrlOf(row.thumbnailKey, signer),
    data: decompressScene(row.scene),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A save's answer (POST, PUT, restore): the project and the scene report's warnings about it. */
export function toSavedProjectBody(saved: { project: Project; warnings: SceneWarning[] }, signer: UrlSigner) {
  return { success: true, project: toProjectBody(saved.project, signer), warnings: saved.warnings };
}
