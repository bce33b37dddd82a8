import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';
import { libraryConnections, type LibraryConnection, type ProviderId } from '../platform/db/schema/index.js';

export type ConnectionValues = Omit<
  typeof libraryConnections.$inferInsert,
  'personId' | 'provider' | 'createdAt' | 'updatedAt' | 'connectedAt'
>;

/** A person's library accounts; tokens arrive and leave here encrypted only. */
export function createLibraryConnectionRepository(db: Db) {
  return {
    async get(personId: string, provider: ProviderId): Promise<LibraryConnection | null> {
      const [row] = await db
        .select()
        .from(libraryConnections)
        .where(and(eq(libraryConnections.personId, personId), eq(libraryConnections.provider, provider)));
      return row ?? null;
    },

    /** Connects (or reconnects: a new account replaces the old one). */
    async upsert(personId: string, provider: ProviderId, values: ConnectionValues): Promise<void> {
      await db
        .insert(libraryConnections)
        .values({ ...values, personId, provider })
        .onConflictDoUpdate({
          target: [libraryConnections.personId, libraryConnections.provider],
          set: { ...values, connectedAt: sql`now()`, updatedAt: sql`now()` },
        });
    },

    /** Stores refreshed tokens, unless the person disconnected meanwhile. */
    async updateTokens(
      personId: string,
      provider: ProviderId,
      values: Pick<ConnectionValues, 'accessTokenEnc' | 'refreshTokenEnc' | 'expiresAt'>,
    ): Promise<void> {
      await db
        .update(libraryConnections)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(eq(libraryConnections.personId, personId), eq(libraryConnections.provider, provider)));
    },

    async delete(personId: string, provider: ProviderId): Promise<boolean> {
      const rows = await db
        .delete(libraryConnections)
        .where(and(eq(libraryConnections.personId, personId), eq(libraryConnections.provider, provider)))
        .returning({ personId: libraryConnections.personId });
      return rows.length > 0;
    },
  };
}
