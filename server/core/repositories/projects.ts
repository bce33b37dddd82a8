import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { projects, submissions, submissionScreenshots } from '../platform/db/schema/index.js';
import { compressScene, type ProjectData } from '../domain/scene.js';
import { afterCursor, toPage, type PageCursor } from './pagination.js';
import type { RevisionPrecondition } from '../domain/revision-precondition.js';

/** Projects, always scoped by workspace: a project of another workspace simply does not exist. */
export interface ProjectInputData {
  name: string;
  type: string;
  data: ProjectData;
}

function sceneColumns(data: ProjectData) {
  const scene = compressScene(data);
  return { scene, sceneBytes: scene.length, modelCount: data.models.length };
}

export function createProjectRepository(db: Db) {
  return {
    async list(workspaceId: string, limit: number, cursor: PageCursor | null) {
      const page = afterCursor(projects.createdAt, projects.id, cursor);
      const rows = await db
        .select({
          id: projects.id,
          name: projects.name,
          type: projects.type,
          revision: projects.revision,
          modelCount: projects.modelCount,
          thumbnailKey: projects.thumbnailKey,
          createdAt: projects.createdAt,
          updatedAt: projects.updatedAt,
        })
        .from(projects)
        .where(and(eq(projects.workspaceId, workspaceId), page.where))
        .orderBy(...page.orderBy)
        .limit(limit + 1);
      return toPage(rows, limit);
    },
    async get(workspaceId: string, id: string, executor: Executor = db) {
      const [row] = await executor
        .select()
        .from(projects)
        .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, id)));
      return row ?? null;
    },
    /** The project's id, name and type, without its scene; null when not in the workspace. */
    async identity(workspaceId: string, id: string) {
      const [row] = await db
        .select({ id: projects.id, name: projects.name, type: projects.type })
        .from(projects)
        .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, id)));
      return row ?? null;
    },
    /** The project's current revision, without its scene; null when the project is not in the workspace. */
    async revision(workspaceId: string, id: string, executor: Executor = db): Promise<number | null> {
      const [row] = await executor
        .select({ revision: projects.revision })
        .from(projects)
        .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, id)));
      return row?.revision ?? null;
    },
    /** Whether the project exists in the workspace, without reading its scene. */
    async exists(workspaceId: string, id: string, executor: Executor = db) {
      const [row] = await executor
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, id)));
      return Boolean(row);
    },
    async create(workspaceId: string, input: ProjectInputData, executor: Executor = db) {
      const [row] = await executor
        .insert(projects)
        .values({ workspaceId, name: input.name, type: input.type, ...sceneColumns(input.data) })
        .returning();
      return row;
    },
    /**
     * Replaces name, type and scene and bumps the revision, only when the current revision meets `expected`: the
     * row lock makes a second writer with the same precondition see the new revision and match nothing.
     */
    async replace(
      tx: Executor,
      workspaceId: string,
      id: string,
      input: ProjectInputData,
      expected?: RevisionPrecondition,
    ) {
      const [row] = await tx
        .update(projects)
        .set({
          name: input.name,
          type: input.type,
          ...sceneColumns(input.data),
          revision: sql`${projects.revision} + 1`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(projects.workspaceId, workspaceId),
            eq(projects.id, id),
            expected?.kind === 'revisions' ? inArray(projects.revision, expected.revisions) : undefined,
          ),
        )
        .returning();
      return row ?? null;
    },
    /** Points the project at a new thumbnail (or none) and answers the key it replaces; null when not found. */
    async setThumbnail(tx: Executor, workspaceId: string, id: string, key: string | null) {
      const where = and(eq(projects.workspaceId, workspaceId), eq(projects.id, id));
      const [current] = await tx.select({ key: projects.thumbnailKey }).from(projects).where(where).for('update');
      if (!current) return null;
      await tx.update(projects).set({ thumbnailKey: key }).where(where);
      return { previousKey: current.key };
    },
    /**
     * Deletes the project (its share settings, requests and events go with it by cascade) and
     * answers the storage keys of its thumbnail and its requests' files, for the caller to remove after commit.
     */
    async delete(tx: Executor, workspaceId: string, id: string): Promise<{ storageKeys: string[] } | null> {
      const pdfs = await tx
        .select({ key: submissions.pdfKey })
        .from(submissions)
        .where(and(eq(submissions.workspaceId, workspaceId), eq(submissions.projectId, id)));
      const shots = await tx
        .select({ key: submissionScreenshots.storageKey })
        .from(submissionScreenshots)
        .innerJoin(submissions, eq(submissions.id, submissionScreenshots.submissionId))
        .where(and(eq(submissions.workspaceId, workspaceId), eq(submissions.projectId, id)));
      const rows = await tx
        .delete(projects)
        .where(and(eq(projects.workspaceId, workspaceId), eq(projects.id, id)))
        .returning({ key: projects.thumbnailKey });
      if (rows.length === 0) return null;
      const keys = [...pdfs, ...shots, ...rows].map((row) => row.key);
      return { storageKeys: keys.filter((key): key is string => Boolean(key)) };
    },
  };
}
