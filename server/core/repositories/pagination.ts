import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { encodeCursor, type PageCursor } from '../domain/page-cursor.js';

export type { PageCursor } from '../domain/page-cursor.js';

/** Keyset pagination, newest first, over (created_at, id); the cursor itself is domain/page-cursor.ts. */
/** The WHERE part that continues after `cursor`, and the ORDER BY to use with it. */
export function afterCursor(
  createdAtColumn: PgColumn,
  idColumn: PgColumn,
  cursor: PageCursor | null,
): { where: SQL | undefined; orderBy: SQL[] } {
  const where = cursor
    ? or(lt(createdAtColumn, cursor.createdAt), and(eq(createdAtColumn, cursor.createdAt), lt(idColumn, cursor.id)))
    : undefined;
  return { where, orderBy: [desc(createdAtColumn), desc(idColumn)] };
}

/** Given `limit + 1` rows, the page and the next cursor. */
export function toPage<T extends { createdAt: Date; id: string }>(
  rows: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
}
