import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { apiKeys, people, projectRevisions, projects } from '../platform/db/schema/index.js';

/** How many revisions of a project are kept; older ones are deleted in the transaction that saves a new one. */
const PROJECT_REVISIONS_KEPT = 50;

/** Whose credentials saved: a person's session, or an API key (its creator is recorded, when known). */
export interface SavedBy {
  personId: string | null;
  apiKeyId?: string;
}

export interface RevisionToRecord {
  workspaceId: string;
  projectId: string;
  revision: number;
  name: string;
  type: string;
  /** The compressed scene, as projects.scene holds it. */
  scene: Buffer;
  savedAt: Date;
  savedBy: SavedBy;
}

/** The kept revisions of projects, always reached through a project of the workspace. */
export function createProjectRevisionRepository(db: Db) {
  const ofWorkspaceProject = (workspaceId: string, projectId: string) =>
    and(eq(projects.workspaceId, workspaceId), eq(projectRevisions.projectId, projectId));

  return {
    /** Records a saved revision and deletes those past the newest PROJECT_REVISIONS_KEPT, in the caller's tx. */
    async record(tx: Executor, row: RevisionToRecord): Promise<void> {
      const { personId, apiKeyId } = row.savedBy;
      const creatorOfKey = apiKeyId
        ? sql`(select ${apiKeys.createdBy} from ${apiKeys} where ${apiKeys.id} = ${apiKeyId}
            and ${apiKeys.workspaceId} = ${row.workspaceId})`
        : null;
      await tx.insert(projectRevisions).values({
        projectId: row.projectId,
        revision: row.revision,
        name: row.name,
        type: row.type,
        scene: row.scene,
        savedAt: row.savedAt,
        savedBy: personId ?? creatorOfKey,
      });
      const oldestKept = tx
        .select({ revision: projectRevisions.revision })
        .from(projectRevisions)
        .where(eq(projectRevisions.projectId, row.projectId))
        .orderBy(desc(projectRevisions.revision))
        .offset(PROJECT_REVISIONS_KEPT - 1)
        .limit(1);
      await tx
        .delete(projectRevisions)
        .where(and(eq(projectRevisions.projectId, row.projectId), lt(projectRevisions.revision, oldestKept)));
    },

    /** The kept revisions, newest first, with who saved them (without their scenes). */
    async list(workspaceId: string, projectId: string) {
      return db
        .select({
          revision: projectRevisions.revision,
          savedAt: projectRevisions.savedAt,
          savedById: people.id,
          savedByEmail: people.email,
        })
        .from(projectRevisions)
        .innerJoin(projects, eq(projects.id, projectRevisions.projectId))
        .leftJoin(people, eq(people.id, projectRevisions.savedBy))
        .where(ofWorkspaceProject(workspaceId, projectId))
        .orderBy(desc(projectRevisions.revision));
    },

    /** One kept revision with its compressed scene; null when not kept or not a project of the workspace. */
    async get(workspaceId: string, projectId: string, revision: number, executor: Executor = db) {
      const [row] = await executor
        .select({
          revision: projectRevisions.revision,
          name: projectRevisions.name,
          type: projectRevisions.type,
          scene: projectRevisions.scene,
          savedAt: projectRevisions.savedAt,
        })
        .from(projectRevisions)
        .innerJoin(projects, eq(projects.id, projectRevisions.projectId))
        .where(and(ofWorkspaceProject(workspaceId, projectId), eq(projectRevisions.revision, revision)));
      return row ?? null;
    },
  };
}
