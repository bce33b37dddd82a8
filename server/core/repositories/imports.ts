import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import {
  ACTIVE_IMPORT_STATUSES,
  assets,
  importJobs,
  type Asset,
  type ImportJob,
  type ImportStatus,
} from '../platform/db/schema/index.js';
import { assetColumns } from './assets.js';

export type NewImportJob = Pick<
  typeof importJobs.$inferInsert,
  'workspaceId' | 'personId' | 'provider' | 'providerAssetId' | 'category' | 'licenseAcknowledged'
>;
export type ImportProgress = Partial<Pick<ImportJob, 'status' | 'progress' | 'stage' | 'bytesReceived' | 'bytesTotal'>>;

/** Import jobs (and the imported assets they lead to), scoped by workspace on every read a client makes. */
export function createImportRepository(db: Db) {
  return {
    /**
     * Serialises import starts of one workspace (a transaction-scoped advisory lock), so that
     * counting the running imports and adding one is atomic across servers.
     */
    async lockWorkspace(tx: Executor, workspaceId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`imports:${workspaceId}`}))`);
    },

    async countActive(tx: Executor, workspaceId: string): Promise<number> {
      const [{ n }] = await tx
        .select({ n: count() })
        .from(importJobs)
        .where(and(eq(importJobs.workspaceId, workspaceId), inArray(importJobs.status, [...ACTIVE_IMPORT_STATUSES])));
      return n;
    },

    /** A running import of the same model in the workspace, if any (a second click joins it). */
    async findActive(
      tx: Executor,
      workspaceId: string,
      provider: ImportJob['provider'],
      providerAssetId: string,
    ): Promise<ImportJob | null> {
      const [row] = await tx
        .select()
        .from(importJobs)
        .where(
          and(
            eq(importJobs.workspaceId, workspaceId),
            eq(importJobs.provider, provider),
            eq(importJobs.providerAssetId, providerAssetId),
            inArray(importJobs.status, [...ACTIVE_IMPORT_STATUSES]),
          ),
        )
        .limit(1);
      return row ?? null;
    },

    async insert(tx: Executor, values: NewImportJob): Promise<ImportJob> {
      const [row] = await tx.insert(importJobs).values(values).returning();
      return row;
    },

    async get(workspaceId: string, id: string): Promise<ImportJob | null> {
      const [row] = await db
        .select()
        .from(importJobs)
        .where(and(eq(importJobs.workspaceId, workspaceId), eq(importJobs.id, id)));
      return row ?? null;
    },

    /** The worker's read: by id only (the job names its workspace). */
    async byId(id: string, executor: Executor = db): Promise<ImportJob | null> {
      const [row] = await executor.select().from(importJobs).where(eq(importJobs.id, id));
      return row ?? null;
    },

    async lock(tx: Executor, id: string): Promise<ImportJob | null> {
      const [row] = await tx.select().from(importJobs).where(eq(importJobs.id, id)).for('update');
      return row ?? null;
    },

    async recent(workspaceId: string, limit: number): Promise<ImportJob[]> {
      return db
        .select()
        .from(importJobs)
        .where(eq(importJobs.workspaceId, workspaceId))
        .orderBy(desc(importJobs.createdAt), desc(importJobs.id))
        .limit(limit);
    },

    /** Counts a starting run; returns the row as it was, whose `runs` and status tell whether an earlier run died. */
    async startRun(id: string): Promise<ImportJob | null> {
      const [row] = await db
        .update(importJobs)
        .set({ runs: sql`${importJobs.runs} + 1`, updatedAt: sql`now()` })
        .where(eq(importJobs.id, id))
        .returning();
      return row ? { ...row, runs: row.runs - 1 } : null;
    },

    /** Progress of a running job; never moves a finished one. */
    async progress(id: string, values: ImportProgress): Promise<void> {
      await db
        .update(importJobs)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(eq(importJobs.id, id), inArray(importJobs.status, [...ACTIVE_IMPORT_STATUSES])));
    },

    async complete(
      tx: Executor,
      id: string,
      values: { assetId: string; readiness: Record<string, unknown>; notices: string[] },
    ): Promise<void> {
      await tx
        .update(importJobs)
        .set({
          ...values,
          status: 'completed' satisfies ImportStatus,
          progress: 100,
          stage: 'Imported',
          finishedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(importJobs.id, id));
    },

    /** Puts `check` in the readiness report of every import that saved the asset, in place of an earlier one. */
    async setReadinessCheck(tx: Executor, assetId: string, check: { id: string }): Promise<void> {
      const others = sql`(select coalesce(jsonb_agg(c), '[]'::jsonb)
        from jsonb_array_elements(${importJobs.readiness} -> 'checks') c
        where c ->> 'id' <> ${check.id})`;
      await tx
        .update(importJobs)
        .set({
          readiness: sql`jsonb_set(${importJobs.readiness}, '{checks}',
            ${others} || jsonb_build_array(${JSON.stringify(check)}::jsonb))`,
        })
        .where(and(eq(importJobs.assetId, assetId), sql`${importJobs.readiness} is not null`));
    },

    /** Fails a job that is not finished yet; false when it already was. */
    async fail(executor: Executor, id: string, error: { code: string; message: string }): Promise<boolean> {
      const rows = await executor
        .update(importJobs)
        .set({
          status: 'failed' satisfies ImportStatus,
          error,
          stage: 'Failed',
          finishedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(importJobs.id, id), inArray(importJobs.status, [...ACTIVE_IMPORT_STATUSES])))
        .returning({ id: importJobs.id });
      return rows.length > 0;
    },

    /** The workspace's asset imported from this library model, if any (newest first). */
    async importedAsset(workspaceId: string, provider: string, providerAssetId: string): Promise<Asset | null> {
      const [row] = await db
        .select(assetColumns)
        .from(assets)
        .where(
          and(
            eq(assets.workspaceId, workspaceId),
            sql`${assets.externalSource}->>'library' = ${provider}`,
            sql`${assets.externalSource}->>'modelId' = ${providerAssetId}`,
          ),
        )
        .orderBy(desc(assets.createdAt))
        .limit(1);
      return row ?? null;
    },
  };
}

export type ImportRepository = ReturnType<typeof createImportRepository>;
