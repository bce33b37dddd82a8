import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { invalidRequest } from '../domain/errors.js';
import { UUID } from '../domain/ids.js';

/**
 * Keyset pagination, newest first, over (created_at, id). The cursor is opaque to clients:
 * base64url of `<iso time>|<id>`.
 */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): PageCursor | null {
  if (!cursor) return null;
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time ?? '');
  if (!id || !UUID.test(id) || Number.isNaN(createdAt.getTime())) throw invalidRequest('cursor is not a cursor this API returned.', [{ field: 'querystring.cursor', message: 'is invalid' }]);
  return { createdAt, id };
}

/** The WHERE part that continues after `cursor`, and the ORDER BY to use with it. */
export function afterCursor(createdAtColumn: PgColumn, idColumn: PgColumn, cursor: PageCursor | null): { where: SQL | undefined; orderBy: SQL[] } {
  const where = cursor
    ? or(lt(createdAtColumn, cursor.createdAt), and(eq(createdAtColumn, cursor.createdAt), lt(idColumn, cursor.id)))
    : undefined;
  return { where, orderBy: [desc(createdAtColumn), desc(idColumn)] };
}

/** Given `limit + 1` rows, the page and the next cursor. */
export function toPage<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
}
