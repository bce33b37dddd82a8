import type { ServerConfig } from '../config.js';
import { createDb } from '../core/platform/db/client.js';
import { applyMigrations } from '../core/platform/db/client.js';
import { createTransactionRunner } from '../core/platform/db/transactions.js';
import { createRedis } from '../core/platform/redis.js';
import { createShareChangePublisher } from '../core/platform/share-changes.js';
import { createStorage } from '../core/platform/storage/index.js';
import { createWorkspaceService } from '../core/services/workspaces.js';
import { createAssetDeliveryService } from '../core/services/asset-delivery.js';

/** Warnings of the services (a notice Redis refused) go to stderr: stdout is the command's result. */
const stderrLog = {
  debug: () => {},
  info: () => {},
  warn: (details: object, message: string) =>
    process.stderr.write(`warning: ${message}${'err' in details ? ` (${(details.err as Error).message})` : ''}\n`),
  error: (details: object, message: string) => process.stderr.write(`error: ${message}\n`),
};

/**
 * The services the commands act through, over their own small pool, with pending migrations
 * applied first. Close it when done.
 */
export async function openCliServices(config: ServerConfig) {
  const db = createDb(config.databaseUrl, 2);
  const redis = createRedis(config.redisUrl, 'request');
  try {
    await applyMigrations(db);
  } catch (error) {
    redis.disconnect();
    await db.$client.end();
    throw error;
  }
  const deps = {
    db,
    inTransaction: createTransactionRunner(db, stderrLog),
    shareChanges: createShareChangePublisher(redis, config.queuePrefix),
    storage: createStorage(config),
    log: stderrLog,
  };
  return {
    workspaces: createWorkspaceService(deps),
    deliveries: createAssetDeliveryService(deps),
    async close() {
      redis.disconnect();
      await db.$client.end();
    },
  };
}

export type CliServices = Awaited<ReturnType<typeof openCliServices>>;
