import { randomUUID } from 'node:crypto';
import {
  checkVisitorEvent,
  type Scene,
  type VisitorEventBatch,
  type VisitorEventsAnswer,
  type VisitorEventType,
} from '../wire/configurator/index.js';
import { serializeDeliveryBody } from '../domain/webhooks/event-types.js';
import { keptEventTime, utcDay } from '../domain/visitor-events/receive-time.js';
import { visitorEventRecord, type CheckedVisitorEvent } from '../domain/visitor-events/event-record.js';
import { visitorDayCounts } from '../domain/visitor-events/day-counts.js';
import { DELIVERY_ID, WEBHOOK_ID, recordVisitorCall } from '../repositories/visitor-events.js';
import { randomShard } from '../repositories/visitor-counters.js';
import { webhookAttemptJob } from '../jobs/webhook-jobs.js';
import type { ServiceDeps } from './service-deps.js';
import type { ShareAccess } from './public-share/share-access.js';

export interface VisitorEventServiceDeps extends ServiceDeps {
  /** The parsed scene of the revision the share checks saw (public-share service). */
  parsedScene(access: ShareAccess): Promise<Scene>;
}

type Rejection = VisitorEventsAnswer['rejected'][number];

/**
 * Checks a batch's events against the scene: the accepted ones in their stored form, the others
 * by index. Only the batch's last `price.calculated` counts (contract 12.10: at most one per batch,
 * the latest), so a page cannot fan out a price per keystroke.
 */
function checkBatch(scene: Scene, batch: VisitorEventBatch, receivedAt: Date) {
  const accepted: CheckedVisitorEvent[] = [];
  const rejected: Rejection[] = [];
  let lastPrice = -1;
  batch.events.forEach((event, index) => {
    if (event.type === 'price.calculated') lastPrice = index;
  });
  batch.events.forEach((event, index) => {
    if (event.type === 'price.calculated' && index !== lastPrice) {
      const message = 'Only the latest price.calculated of a batch is recorded.';
      rejected.push({ index, error: 'invalid_event', message });
      return;
    }
    const checked = checkVisitorEvent(scene, event);
    if (!checked.ok) rejected.push({ index, error: checked.error, message: checked.message });
    else
      accepted.push({
        type: event.type as VisitorEventType,
        at: keptEventTime(event.at, receivedAt),
        data: checked.data,
      });
  });
  return { accepted, rejected };
}

/**
 * Visitor events (contract 12.10): a page's batch checked against the current revision's scene,
 * each accepted event recorded as a project event with its webhook deliveries and their outbox
 * jobs, and counted on its UTC day (12.12), all of a call in one statement: one round trip, and
 * the counter rows locked only inside Postgres until it commits.
 */
export function createVisitorEventService(deps: VisitorEventServiceDeps) {
  return {
    async record(
      access: ShareAccess,
      batch: VisitorEventBatch,
      receivedAt: Date = new Date(),
    ): Promise<VisitorEventsAnswer> {
      const scene = await deps.parsedScene(access);
      const { accepted, rejected } = checkBatch(scene, batch, receivedAt);
      if (accepted.length === 0) return { success: true, accepted: 0, rejected };

      const { projectId, workspaceId } = access;
      const events = accepted.map((event) => {
        const id = randomUUID();
        const data = visitorEventRecord(scene, batch.sessionId, event);
        const body = serializeDeliveryBody({ id, event: event.type, createdAt: receivedAt, projectId, data });
        return { id, type: event.type, data, body };
      });
      const counts = visitorDayCounts(accepted);
      // Placeholders the statement fills with each delivery's ids: the job stays webhook-jobs.ts's.
      const job = webhookAttemptJob({ id: DELIVERY_ID, projectId, webhookId: WEBHOOK_ID }, 1);
      await deps.inTransaction.statement(async ({ afterCommit }) => {
        const queued = await recordVisitorCall(deps.db, {
          workspaceId,
          projectId,
          createdAt: receivedAt,
          events,
          job,
          counts: {
            projectId,
            day: utcDay(receivedAt),
            sessionId: batch.sessionId,
            counts,
            choices: counts.choices,
            shard: randomShard(),
          },
        });
        const jobs = queued.map((row) => ({ ...job, ...row }));
        if (jobs.length > 0) afterCommit(() => deps.outbox?.nudge(jobs, deps.log));
      });
      return { success: true, accepted: accepted.length, rejected };
    },
  };
}
