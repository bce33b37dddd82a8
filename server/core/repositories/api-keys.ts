import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';
import { apiKeys, type ApiKey } from '../platform/db/schema/index.js';

/** Workspace API keys, stored as SHA-256 hashes; always scoped by workspace except the lookup by hash. */
export function createApiKeyRepository(db: Db) {
  return {
    async findByHash(keyHash: string): Promise<ApiKey | null> {
      return (await db.query.apiKeys.findFirst({ where: eq(apiKeys.keyHash, keyHash) })) ?? null;
    },
    /** Sets last_used_at unless it was set after `staleBefore`. */
    async touch(id: string, staleBefore: Date): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: new Date() })
        .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore))));
    },
    async count(workspaceId: string): Promise<number> {
      return db.$count(apiKeys, eq(apiKeys.workspaceId, workspaceId));
    },
    async create(values: {
      workspaceId: string;
      name: string;
      keyHash: string;
      createdBy: string | null;
    }): Promise<ApiKey> {
      const [row] = await db.insert(apiKeys).values(values).returning();
      return row;
    },
    async list(workspaceId: string): Promise<ApiKey[]> {
      return db.select().from(apiKeys).where(eq(apiKeys.workspaceId, workspaceId)).orderBy(desc(apiKeys.createdAt));
    },
    async delete(workspaceId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(apiKeys)
        .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, id)))
        .returning({ id: apiKeys.id });
      return rows.length > 0;
    },
  };
}
