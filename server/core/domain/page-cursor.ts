import { invalidRequest } from './errors.js';
import { UUID } from './ids.js';

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

/** `isId`: what the listed rows' ids look like (uuids, unless the rows say otherwise). */
export function decodeCursor(
  cursor: string | undefined,
  isId: (id: string) => boolean = (id) => UUID.test(id),
): PageCursor | null {
  if (!cursor) return null;
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time ?? '');
  if (!id || !isId(id) || Number.isNaN(createdAt.getTime()))
    throw invalidRequest('cursor is not a cursor this API returned.', [
      { field: 'querystring.cursor', message: 'is invalid' },
    ]);
  return { createdAt, id };
}
