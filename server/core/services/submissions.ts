import { randomUUID } from 'node:crypto';
import type { OutboxNudger } from '../jobs/outbox.js';
import { FIRST_SUBMISSION_STEPS, submissionJob, submissionJobId } from '../jobs/queues.js';
import { SUBMISSION_STEPS, requestSteps } from '../platform/db/schema/index.js';
import { createProjectRepository } from '../repositories/projects.js';
import { createSubmissionRepository } from '../repositories/submissions.js';
import { emitEvent } from './events.js';
import type { PageCursor } from '../repositories/pagination.js';
import { notFound } from '../domain/errors.js';
import { checkFormData, checkJsonSize, decodeScreenshot } from '../domain/submission-input.js';
import { priceRequest, type ClientPrice } from '../domain/request-price.js';
import { customerAddress } from '../domain/customer-address.js';
import type { Scene } from '../wire/configurator/index.js';
import { IDEMPOTENCY_WINDOW_MS } from '../wire/submit-limits.js';
import { deleteFiles, nudgeDeliveries, type ServiceDeps } from './service-deps.js';
import type { ShareAccess } from './public-share/share-access.js';
import { createVisitorCounterRepository } from '../repositories/visitor-counters.js';
import { utcDay } from '../domain/visitor-events/receive-time.js';

/** A public submit as the route parsed it (docs/api.md, Submit). */
export interface SubmitInput {
  formData: Record<string, unknown>;
  selectedOptions: Record<string, unknown>;
  configurationSummary: string;
  /** Base64 data URLs, as sent. */
  screenshots: string[];
  /** The price the visitor's page showed, or null. */
  clientPrice: ClientPrice | null;
  idempotencyKey: string | null;
  clientIp: string;
}

export interface SubmissionServiceDeps extends ServiceDeps {
  /** Hands committed background work to the queues; the worker's relay covers what it misses. */
  outbox: OutboxNudger;
  /** The project's form fields at the revision the share checks saw (public-share service). */
  formFields(access: ShareAccess): Promise<unknown>;
  /** The parsed scene at the revision the share checks saw (public-share service). */
  parsedScene(access: ShareAccess): Promise<Scene>;
}

/**
 * Submissions: a visitor's submit with its screenshots and background steps. "Request" on the wire and
 * for owners (docs/architecture.md, Naming); a submission everywhere in the code.
 */
export function createSubmissionService(deps: SubmissionServiceDeps) {
  const repo = createSubmissionRepository(deps.db);
  const projects = createProjectRepository(deps.db);
  const counters = createVisitorCounterRepository(deps.db);

  async function get(workspaceId: string, projectId: string, id: string) {
    const found = await repo.get(workspaceId, projectId, id);
    if (!found) throw notFound('Request');
    return found;
  }

  return {
    /**
     * Answered only once the submission, screenshots and pending work are committed; a reused
     * Idempotency-Key (24 h) answers the first submission's id and stores nothing.
     */
    async submit(access: ShareAccess, input: SubmitInput): Promise<string> {
      if (input.idempotencyKey) {
        const existing = await repo.findByIdempotencyKey(access.projectId, input.idempotencyKey, IDEMPOTENCY_WINDOW_MS);
        if (existing) return existing;
      }
      checkJsonSize('body.formData', input.formData);
      checkJsonSize('body.selectedOptions', input.selectedOptions);
      const screenshots = input.screenshots.map(decodeScreenshot);
      const formFields = await deps.formFields(access);
      checkFormData(formFields, input.formData);
      const scene = await deps.parsedScene(access);
      // The server's figure is the one used everywhere; the page's is kept beside it (docs/api.md, Submit).
      const price = priceRequest(scene, input.selectedOptions, input.formData);
      const customerCopy =
        scene.settings.notifications.customerCopy && customerAddress(formFields, input.formData) !== null;
      const id = randomUUID();
      const jobs = FIRST_SUBMISSION_STEPS.map((step) => submissionJob(id, step));
      return deps.inTransaction.statement(async ({ afterCommit }) => {
        const created = await repo.create(
          {
            id,
            projectId: access.projectId,
            workspaceId: access.workspaceId,
            formData: input.formData,
            selectedOptions: input.selectedOptions,
            configurationSummary: input.configurationSummary,
            price,
            clientPrice: input.clientPrice,
            idempotencyKey: input.idempotencyKey,
            clientIp: input.clientIp,
            screenshots,
            steps: requestSteps(customerCopy),
          },
          jobs,
          IDEMPOTENCY_WINDOW_MS,
        );
        // Fire and forget: the submission is safe in Postgres; Redis must not delay or fail the answer.
        afterCommit(() => deps.outbox.nudge(created.outbox, deps.log));
        // The day's submissions counter (docs/api.md, Analytics), in a statement of its own once the request is safe.
        if (created.created) afterCommit(() => counters.addSubmission(access.projectId, utcDay(new Date())));
        return created.id;
      });
    },

    /** A page of the project's submissions, newest first, with their step states. */
    async list(workspaceId: string, projectId: string, limit: number, cursor: PageCursor | null) {
      if (!(await projects.exists(workspaceId, projectId))) throw notFound('Project');
      return repo.list(workspaceId, projectId, limit, cursor);
    },

    get,

    /** Sets the owner's status; quote.updated when it changed. */
    async setStatus(workspaceId: string, projectId: string, id: string, status: string) {
      const changed = await deps.inTransaction(async ({ tx, afterCommit }) => {
        const result = await repo.setStatus(tx, workspaceId, projectId, id, status);
        if (!result?.changed) return result;
        const emitted = await emitEvent(deps, tx, {
          workspaceId,
          projectId,
          type: 'quote.updated',
          data: {
            requestId: id,
            projectId,
            status: result.row.status,
            previousStatus: result.previousStatus,
            updatedAt: result.row.updatedAt.toISOString(),
            price: result.row.price,
          },
        });
        afterCommit(nudgeDeliveries(deps, emitted));
        return result;
      });
      if (!changed) throw notFound('Request');
      return get(workspaceId, projectId, id);
    },

    /** Deletes the submission (quote.deleted, in the deleting transaction) and, after commit, its files. */
    async delete(workspaceId: string, projectId: string, id: string): Promise<void> {
      const deleted = await deps.inTransaction(async ({ tx, afterCommit }) => {
        const stepJobIds = SUBMISSION_STEPS.map((step) => submissionJobId(id, step));
        const result = await repo.delete(tx, workspaceId, projectId, id, stepJobIds);
        if (!result) return null;
        const emitted = await emitEvent(deps, tx, {
          workspaceId,
          projectId,
          type: 'quote.deleted',
          data: { requestId: id, projectId, status: result.row.status, deletedAt: new Date().toISOString() },
          dedupeKey: `submission:${id}:quote.deleted`,
        });
        afterCommit(nudgeDeliveries(deps, emitted));
        // A step still running notices the submission is gone and cleans up after itself.
        afterCommit(deleteFiles(deps, result.storageKeys));
        return result;
      });
      if (!deleted) throw notFound('Request');
    },
  };
}
