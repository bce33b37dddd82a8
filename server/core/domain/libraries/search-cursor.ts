import { createHash } from 'node:crypto';
import { invalidRequest } from '../errors.js';

/**
 * The search's opaque `nextCursor`: each library's page state plus a digest of its filters, so a
 * cursor sent with other filters is refused (400) instead of mixing two searches.
 */
export interface SearchCursorState {
  /** Page state per library still to be asked (libraries absent here are exhausted). */
  pages: Record<string, unknown>;
}

export function filtersDigest(filters: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(filters)
      .sort()
      .map((key) => [key, filters[key] ?? null]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function encodeCursor(state: SearchCursorState, digest: string): string {
  return Buffer.from(JSON.stringify({ v: 1, f: digest, p: state.pages })).toString('base64url');
}

export function decodeCursor(cursor: string, digest: string): SearchCursorState {
  const bad = (message: string) => invalidRequest(message, [{ field: 'querystring.cursor', message }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad('cursor is not a value this API returned');
  }
  const value = parsed as { v?: unknown; f?: unknown; p?: unknown };
  if (
    !value ||
    value.v !== 1 ||
    typeof value.f !== 'string' ||
    !value.p ||
    typeof value.p !== 'object' ||
    Array.isArray(value.p)
  )
    throw bad('cursor is not a value this API returned');
  if (value.f !== digest)
    throw bad(
      'cursor belongs to a search with other filters; send it with the same filters, or start again without it',
    );
  for (const page of Object.values(value.p as Record<string, unknown>)) {
    if (
      page !== null &&
      typeof page !== 'string' &&
      !(typeof page === 'number' && Number.isInteger(page) && page >= 0 && page < 1_000_000)
    )
      throw bad('cursor is not a value this API returned');
  }
  return { pages: value.p as Record<string, unknown> };
}
