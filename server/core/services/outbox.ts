import type { Db } from '../platform/db/client.js';
import { createOutboxRepository } from '../repositories/outbox.js';

/**
 * The outbox as the worker's relay works it: claim due rows, record their hand-overs to BullMQ,
 * look again later, and give up a row in the transaction that deletes it.
 */
export function createOutboxService(db: Db) {
  const repo = createOutboxRepository(db);
  return {
    claimDue: repo.claimDue,
    markSent: repo.markSent,
    checkLater: repo.checkLater,
    postpone: repo.postpone,
    giveUp: repo.takeAndDelete,
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
