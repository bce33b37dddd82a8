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
import { insertVisitorEvents } from '../repositories/visitor-events.js';
import { addToOutbox } from '../repositories/outbox.js';
import { addVisitorCounts } from '../repositories/visitor-counters.js';
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
 * each accepted event recorded as a project event with its webhook deliveries (all of the call
 * in one statement) and counted on its UTC day (12.12), in one transaction whose counter
 * upsert comes last, so that hot counter rows are locked only until the commit.
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
      await deps.inTransaction(async ({ tx, afterCommit }) => {
        const deliveries = await insertVisitorEvents(tx, { workspaceId, projectId, createdAt: receivedAt, events });
        if (deliveries.length > 0) {
          const jobs = deliveries.map((d) =>
            webhookAttemptJob({ id: d.deliveryId, projectId, webhookId: d.webhookId }, 1),
          );
          const ids = await addToOutbox(tx, jobs);
          const queued = jobs.map((job, i) => ({ ...job, id: ids[i] }));
          afterCommit(() => deps.outbox?.nudge(queued, deps.log));
        }
        await addVisitorCounts(tx, {
          projectId,
          day: utcDay(receivedAt),
          sessionId: batch.sessionId,
          counts,
          choices: counts.choices,
        });
      });
      return { success: true, accepted: accepted.length, rejected };
    },
  };
}
