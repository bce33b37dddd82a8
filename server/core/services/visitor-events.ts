import { randomUUID } from 'node:crypto';
import {
  checkVisitorEvent,
  type Scene,
  type VisitorEventBatch,
  type VisitorEventsAnswer,
  type VisitorEventType,
} from '../wire/configurator/index.js';
import { keptEventTime, utcDay } from '../domain/visitor-events/receive-time.js';
import { visitorEventRecord, type CheckedVisitorEvent } from '../domain/visitor-events/event-record.js';
import { visitorDayCounts } from '../domain/visitor-events/day-counts.js';
import { DELIVERY_ID, WEBHOOK_ID, createVisitorEventRepository } from '../repositories/visitor-events.js';
import { randomShard } from '../repositories/visitor-counters.js';
import { webhookAttemptJob } from '../jobs/queues.js';
import type { ServiceDeps } from './service-deps.js';
import type { ShareAccess } from './public-share/share-access.js';

export interface VisitorEventServiceDeps extends ServiceDeps {
  /** The parsed scene of the revision the share checks saw (public-share service). */
  parsedScene(access: ShareAccess): Promise<Scene>;
}

type Rejection = VisitorEventsAnswer['rejected'][number];

/** Only the batch's last `price.calculated` counts (docs/api.md, Visitor events): no price per keystroke. */
function checkBatch(scene: Scene, batch: VisitorEventBatch, receivedAt: Date) {
  const accepted: CheckedVisitorEvent[] = [];
  const rejected: Rejection[] = [];
  let lastPrice = -1;
  batch.events.forEach((event, index) => {
    if (event.type === 'price.calculated') lastPrice = index;
  });
  // A page's batch often repeats one `at`: each distinct one is parsed once.
  const keptTimes = new Map<string, string>();
  const keptTime = (at: string) => {
    let kept = keptTimes.get(at);
    if (kept === undefined) keptTimes.set(at, (kept = keptEventTime(at, receivedAt)));
    return kept;
  };
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
        at: keptTime(event.at),
        data: checked.data,
      });
  });
  return { accepted, rejected };
}

/**
 * Visitor events (docs/api.md, Visitor events): a whole call is recorded in one statement, one round trip, so the
 * counter rows stay locked only inside Postgres until it commits.
 */
export function createVisitorEventService(deps: VisitorEventServiceDeps) {
  const visitorEvents = createVisitorEventRepository(deps.db);
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
      // Delivery bodies are built by the statement, only for the events a webhook subscribes to.
      const events = accepted.map((event) => ({
        id: randomUUID(),
        type: event.type,
        data: visitorEventRecord(scene, batch.sessionId, event),
      }));
      const counts = visitorDayCounts(accepted);
      // Placeholders the statement fills with each delivery's ids: the job stays queues.ts's.
      const job = webhookAttemptJob({ id: DELIVERY_ID, projectId, webhookId: WEBHOOK_ID }, 1);
      await deps.inTransaction.statement(async ({ afterCommit }) => {
        const queued = await visitorEvents.recordVisitorCall({
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
