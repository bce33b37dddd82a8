import { AppError, invalidRequest } from './errors.js';

/**
 * The owner project's ETag (`"r<revision>"`) and the If-Match preconditions a save honours: `*`, or a list of
 * entity tags. A weak tag (`W/"r5"`) names its revision too: the tag is the revision, nothing weaker exists.
 */
export type RevisionPrecondition = { kind: 'any' } | { kind: 'revisions'; revisions: number[] };

export const revisionEtag = (revision: number) => `"r${revision}"`;

const IF_MATCH_RULE = 'If-Match must be *, or entity tags such as "r5" (quoted, W/ allowed) separated by commas.';
/** One element of the list (RFC 9110 entity-tag), with the comma or end that follows it. */
const ENTITY_TAG = /\s*(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/y;
/** Nine digits at most: a revision that fits the column (a longer one names none, so it can only fail). */
const OUR_TAG = /^r([1-9][0-9]{0,8})$/;

const malformed = () => invalidRequest(IF_MATCH_RULE, [{ field: 'headers.if-match', message: IF_MATCH_RULE }]);

/** The precondition an If-Match header sets; none without the header. A malformed header is a 400. */
export function parseIfMatch(header: string | undefined): RevisionPrecondition | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return { kind: 'any' };
  // Empty list elements (", ,") are allowed by RFC 9110's list syntax.
  const list = header.replace(/^[\s,]+/, '');
  if (list === '') throw malformed();
  const revisions: number[] = [];
  let position = 0;
  while (position < list.length) {
    ENTITY_TAG.lastIndex = position;
    const match = ENTITY_TAG.exec(list);
    if (!match) throw malformed();
    // A tag that is not one of ours is well-formed but names no revision: it can only fail (412).
    const ours = OUR_TAG.exec(match[1]);
    if (ours) revisions.push(Number(ours[1]));
    position = ENTITY_TAG.lastIndex;
    while (/[\s,]/.test(list[position] ?? '')) position++;
  }
  return { kind: 'revisions', revisions };
}

/** 412: the project moved on since the client read it; nothing was written. */
export const revisionConflict = (currentRevision: number) =>
  new AppError(
    412,
    'revision_conflict',
    `If-Match names another revision than the current one (r${currentRevision}): ` +
      'read the project again and reapply the change.',
    { currentRevision },
    { etag: revisionEtag(currentRevision) },
  );
