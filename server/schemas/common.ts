import { Type, type TSchema } from 'typebox';

/** Shapes every route shares. */
export const Uuid = Type.String({ format: 'uuid' });
export const IdParams = Type.Object({ id: Uuid });

const ErrorBody = Type.Object(
  { success: Type.Literal(false), error: Type.String(), message: Type.String() },
  { additionalProperties: true, description: 'The error body every route uses.' },
);

export const PageQuery = Type.Object({
  limit: Type.Optional(
    Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: 'Items per page, 1 to 100 (default 50).' }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor from the previous page.' })),
});

/** The page size; the schema already holds `limit` to 1-100. */
export function pageLimit(limit: string | undefined, fallback = 50): number {
  return limit === undefined ? fallback : Number(limit);
}

/** Error responses documented for routes (OpenAPI only; the error handler shapes them). */
export function errors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}

/** An opaque JSON object the API stores as given. */
export const OpaqueObject = Type.Object({}, { additionalProperties: true });
