import { Type } from 'typebox';
import { Uuid } from './common.js';

/** Path of one kept revision. */
export const RevisionParams = Type.Object({
  id: Uuid,
  revision: Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'A revision number, such as 5 (not the ETag).' }),
});

/** The optional precondition of a save (PUT, restore). */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      maxLength: 1024,
      description:
        'The ETag of the revision the edit is based on ("r5"; W/"r5" and a list are accepted, * matches any). ' +
        'Another current revision: 412 revision_conflict with currentRevision, nothing written. A header that is ' +
        'not an entity-tag list (an unquoted r5, say): 400 invalid_request. Without it the last write wins.',
    }),
  ),
});

/** The 412 of a save whose If-Match names another revision; nothing was written. */
export const RevisionConflictBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Literal('revision_conflict'),
    message: Type.String(),
    currentRevision: Type.Integer({ description: "The project's current revision; ETag carries it too." }),
  },
  { description: 'If-Match names another revision than the current one: nothing was written.' },
);

/** Documents the `ETag: "r<revision>"` header of an answer (OpenAPI only; the route sets it). */
export function withRevisionEtag<T extends object>(schema: T): T {
  return {
    ...schema,
    headers: { etag: { type: 'string', description: 'The project revision as an entity tag: "r<revision>".' } },
  };
}
