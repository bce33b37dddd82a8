import { and, eq } from 'drizzle-orm';
import type { Executor } from '../platform/db/client.js';
import { projects } from '../platform/db/schema/index.js';

/** The project's current revision, without its scene; null when the project is not in the workspace. */
export async function projectRevision(db: Executor, workspaceId: string, projectId: string): Promise<number | null> {
  const [row] = await db
    .select({ revision: projects.revision })
    .from(projects)
    .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, projectId)));
  return row?.revision ?? null;
}
