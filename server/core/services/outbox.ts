import type { Db } from '../platform/db/client.js';
import { createOutboxRepository } from '../repositories/outbox.js';

/** The outbox as the worker's relay works it: claim due rows, record hand-overs, look again later, give up. */
export const createOutboxService = (db: Db) => createOutboxRepository(db);
