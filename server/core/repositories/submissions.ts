import { and, count, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import {
  projects,
  submissionScreenshots,
  submissionSteps,
  submissions,
  type Submission,
  type SubmissionStep,
} from '../platform/db/schema/index.js';
import { afterCursor, toPage, type PageCursor } from './pagination.js';
import { createOutboxRepository, type NewOutboxRow } from './outbox.js';
import { decompressScene, type ProjectData } from '../domain/scene.js';
import type { ClientPrice, StoredPrice } from '../domain/request-price.js';

/**
 * Submissions ("requests" to owners). Owner methods take workspace and project ids so another tenant's
 * request does not exist; worker methods take the submission id its jobs carry.
 */

export interface NewSubmission {
  id: string;
  projectId: string;
  workspaceId: string;
  formData: Record<string, unknown>;
  selectedOptions: Record<string, unknown>;
  configurationSummary: string;
  /** The server's price of the request (docs/api.md, Submit), null without pricing. */
  price?: StoredPrice | null;
  /** What the visitor's page showed, as sent. */
  clientPrice?: ClientPrice | null;
  idempotencyKey: string | null;
  clientIp: string | null;
  screenshots: Array<{ mimeType: string; data: Buffer }>;
  /** The background steps the request has (`requestSteps`), each pending. */
  steps: SubmissionStep[];
}

/** What background steps need to know about a submission and its project. */
export interface SubmissionForWork {
  submission: Submission;
  projectName: string;
  projectData: ProjectData;
}

export function createSubmissionRepository(db: Db) {
  const outbox = createOutboxRepository(db);
  return {
    /** The request stored under this Idempotency-Key in the last `windowMs`, if any. */
    async findByIdempotencyKey(projectId: string, key: string, windowMs: number): Promise<string | null> {
      const [row] = await db
        .select({ id: submissions.id })
        .from(submissions)
        .where(
          and(
            eq(submissions.projectId, projectId),
            eq(submissions.idempotencyKey, key),
            gte(submissions.createdAt, new Date(Date.now() - windowMs)),
          ),
        );
      return row?.id ?? null;
    },

    /**
     * Stores a request, its screenshots, steps and outbox rows `jobs` at once; an Idempotency-Key already
     * used answers the first id (`created: false`). The caller wakes the relays; their sweep covers a lost wake-up.
     */
    async create<Job extends NewOutboxRow>(
      input: NewSubmission,
      jobs: Job[],
      idempotencyWindowMs: number,
    ): Promise<{ id: string; created: boolean; outbox: Array<Job & { id: number }> }> {
      if (input.idempotencyKey) {
        // An expired key is free again: forget it on the old request (the unique index would refuse it).
        await db
          .update(submissions)
          .set({ idempotencyKey: null })
          .where(
            and(
              eq(submissions.projectId, input.projectId),
              eq(submissions.idempotencyKey, input.idempotencyKey),
              lt(submissions.createdAt, new Date(Date.now() - idempotencyWindowMs)),
            ),
          );
      }
      // One statement, one round trip: the hot path of every submit. A parallel insert with the same
      // Idempotency-Key is waited for by ON CONFLICT.
      const { id } = input;
      const { rows } = await db.$client.query<{
        created: boolean;
        outbox_rows: Array<{ id: string; jobId: string }> | null;
      }>(
        `WITH inserted AS (
           INSERT INTO submissions (id, project_id, workspace_id, form_data, selected_options, configuration_summary,
                                    idempotency_key, client_ip, price, client_price)
           VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $16::jsonb, $17::jsonb)
           ON CONFLICT (project_id, idempotency_key) DO NOTHING
           RETURNING id
         ), shots AS (
           INSERT INTO submission_screenshots (submission_id, position, mime_type, data)
           SELECT inserted.id, shot.position - 1, shot.mime_type, shot.data
           FROM inserted, unnest($9::text[], $10::bytea[]) WITH ORDINALITY AS shot(mime_type, data, position)
         ), steps AS (
           INSERT INTO submission_steps (submission_id, step)
           SELECT inserted.id, step FROM inserted, unnest($11::text[]) AS step
         ), queued AS (
           INSERT INTO outbox (queue, job_name, job_id, payload)
           SELECT job.queue, job.job_name, job.job_id, job.payload
           FROM inserted,
                unnest($12::text[], $13::text[], $14::text[], $15::jsonb[]) AS job(queue, job_name, job_id, payload)
           ON CONFLICT (job_id) DO NOTHING
           RETURNING id, job_id
         )
         SELECT EXISTS (SELECT 1 FROM inserted) AS created,
                (SELECT json_agg(json_build_object('id', id, 'jobId', job_id)) FROM queued) AS outbox_rows`,
        [
          id,
          input.projectId,
          input.workspaceId,
          JSON.stringify(input.formData),
          JSON.stringify(input.selectedOptions),
          input.configurationSummary,
          input.idempotencyKey,
          input.clientIp,
          input.screenshots.map((shot) => shot.mimeType),
          input.screenshots.map((shot) => shot.data),
          input.steps,
          jobs.map((job) => job.queue),
          jobs.map((job) => job.name),
          jobs.map((job) => job.jobId),
          jobs.map((job) => JSON.stringify(job.data)),
          input.price ? JSON.stringify(input.price) : null,
          input.clientPrice ? JSON.stringify(input.clientPrice) : null,
        ],
      );
      if (rows[0].created) {
        const ids = new Map((rows[0].outbox_rows ?? []).map((row) => [row.jobId, Number(row.id)]));
        return {
          id,
          created: true,
          outbox: jobs.filter((job) => ids.has(job.jobId)).map((job) => ({ ...job, id: ids.get(job.jobId)! })),
        };
      }
      // The same key arrived a moment ago (possibly in parallel; the insert waited for it).
      const [existing] = await db
        .select({ id: submissions.id })
        .from(submissions)
        .where(and(eq(submissions.projectId, input.projectId), eq(submissions.idempotencyKey, input.idempotencyKey!)));
      return { id: existing.id, created: false, outbox: [] };
    },

    /** A page of the project's requests, newest first, with their step states. */
    async list(workspaceId: string, projectId: string, limit: number, cursor: PageCursor | null) {
      const page = afterCursor(submissions.createdAt, submissions.id, cursor);
      const rows = await db
        .select()
        .from(submissions)
        .where(and(eq(submissions.workspaceId, workspaceId), eq(submissions.projectId, projectId), page.where))
        .orderBy(...page.orderBy)
        .limit(limit + 1);
      const result = toPage(rows, limit);
      const ids = result.items.map((r) => r.id);
      const [steps, shots] = ids.length
        ? await Promise.all([
            db.select().from(submissionSteps).where(inArray(submissionSteps.submissionId, ids)),
            db
              .select({ submissionId: submissionScreenshots.submissionId, n: count() })
              .from(submissionScreenshots)
              .where(inArray(submissionScreenshots.submissionId, ids))
              .groupBy(submissionScreenshots.submissionId),
          ])
        : [[], []];
      return {
        nextCursor: result.nextCursor,
        items: result.items.map((row) => ({
          row,
          steps: steps.filter((s) => s.submissionId === row.id),
          screenshotCount: Number(shots.find((s) => s.submissionId === row.id)?.n ?? 0),
        })),
      };
    },

    /** One request with its steps and screenshots (without their bytes). */
    async get(workspaceId: string, projectId: string, id: string) {
      const [row] = await db
        .select()
        .from(submissions)
        .where(
          and(eq(submissions.workspaceId, workspaceId), eq(submissions.projectId, projectId), eq(submissions.id, id)),
        );
      if (!row) return null;
      const [steps, screenshots] = await Promise.all([
        db.select().from(submissionSteps).where(eq(submissionSteps.submissionId, id)),
        db
          .select({
            position: submissionScreenshots.position,
            mimeType: submissionScreenshots.mimeType,
            storageKey: submissionScreenshots.storageKey,
          })
          .from(submissionScreenshots)
          .where(eq(submissionScreenshots.submissionId, id))
          .orderBy(submissionScreenshots.position),
      ]);
      return { row, steps, screenshots };
    },

    /**
     * Sets the owner's status; null when the request is not there. Returns the status it had and
     * whether anything changed (setting the current status again is a no-op).
     */
    async setStatus(tx: Executor, workspaceId: string, projectId: string, id: string, status: string) {
      const [before] = await tx
        .select()
        .from(submissions)
        .where(
          and(eq(submissions.workspaceId, workspaceId), eq(submissions.projectId, projectId), eq(submissions.id, id)),
        )
        .for('update');
      if (!before) return null;
      if (before.status === status) return { row: before, previousStatus: before.status, changed: false };
      const [row] = await tx
        .update(submissions)
        .set({ status, updatedAt: new Date() })
        .where(eq(submissions.id, id))
        .returning();
      return { row, previousStatus: before.status, changed: true };
    },

    /**
     * Deletes a request with its rows and its pending outbox work; returns the storage keys of
     * its files (removed by the caller after commit), or null when it is not there.
     */
    async delete(
      tx: Executor,
      workspaceId: string,
      projectId: string,
      id: string,
      outboxJobIds: string[],
    ): Promise<{ row: Submission; storageKeys: string[] } | null> {
      const [row] = await tx
        .select()
        .from(submissions)
        .where(
          and(eq(submissions.workspaceId, workspaceId), eq(submissions.projectId, projectId), eq(submissions.id, id)),
        )
        .for('update');
      if (!row) return null;
      const shots = await tx
        .select({ storageKey: submissionScreenshots.storageKey })
        .from(submissionScreenshots)
        .where(eq(submissionScreenshots.submissionId, id));
      await outbox.completeJobs(tx, outboxJobIds);
      await tx.delete(submissions).where(eq(submissions.id, id));
      const storageKeys = [...shots.map((s) => s.storageKey), row.pdfKey].filter((k): k is string => Boolean(k));
      return { row, storageKeys };
    },

    /** The submission row alone; null when deleted. */
    async byId(submissionId: string): Promise<Submission | null> {
      const [row] = await db.select().from(submissions).where(eq(submissions.id, submissionId));
      return row ?? null;
    },

    /** The submission with its project's name and scene; null when deleted. */
    async forWork(submissionId: string): Promise<SubmissionForWork | null> {
      const [row] = await db
        .select({
          submission: submissions,
          projectName: projects.name,
          scene: projects.scene,
        })
        .from(submissions)
        .innerJoin(projects, eq(projects.id, submissions.projectId))
        .where(eq(submissions.id, submissionId));
      if (!row) return null;
      return {
        submission: row.submission,
        projectName: row.projectName,
        projectData: decompressScene(row.scene),
      };
    },

    async setPdfKey(tx: Executor, submissionId: string, pdfKey: string) {
      await tx.update(submissions).set({ pdfKey }).where(eq(submissions.id, submissionId));
    },
  };
}
