import { Type } from 'typebox';
import { SharePasswordHeader } from './shares.js';
import { SESSION_ID_PATTERN, VISITOR_EVENT_LIMITS, VISITOR_EVENT_TYPES } from '../core/wire/configurator/index.js';

/** Shapes of `POST /share/:projectId/:token/events` (docs/api.md, Visitor events). */

export const VisitorEventsHeaders = Type.Object({ 'x-share-password': SharePasswordHeader });

const VisitorEventInput = Type.Object({
  type: Type.String({
    maxLength: 64,
    description: `One of ${VISITOR_EVENT_TYPES.join(', ')}; another type is left out as unknown_type.`,
  }),
  at: Type.String({ format: 'date-time', maxLength: 40, description: 'When it happened on the page (ISO time).' }),
  data: Type.Optional(
    Type.Object(
      {},
      {
        additionalProperties: true,
        default: {},
        description:
          `The type's fields, at most ${VISITOR_EVENT_LIMITS.dataBytes / 1024} KB as JSON; ` +
          'fields not listed for the type are not stored.',
      },
    ),
  ),
});

export const VisitorEventsBody = Type.Object(
  {
    sessionId: Type.String({
      pattern: SESSION_ID_PATTERN.source,
      description:
        '16 to 64 of A-Z a-z 0-9 _ -: 128 random bits per page load, shared by the page, kept in memory only.',
    }),
    events: Type.Array(VisitorEventInput, { minItems: 1, maxItems: VISITOR_EVENT_LIMITS.eventsPerCall }),
  },
  {
    description:
      `Content-Type application/json or text/plain (a JSON text, as sendBeacon sends it); at most ` +
      `${VISITOR_EVENT_LIMITS.bodyBytes / 1024} KB.`,
  },
);

export const VisitorEventsReply = Type.Object({
  success: Type.Literal(true),
  accepted: Type.Integer({ description: 'Events recorded.' }),
  rejected: Type.Array(
    Type.Object({
      index: Type.Integer({ description: "The event's position in the batch, from 0." }),
      error: Type.Union([
        Type.Literal('unknown_type'),
        Type.Literal('unknown_block'),
        Type.Literal('unknown_choice'),
        Type.Literal('unknown_animation'),
        Type.Literal('invalid_event'),
      ]),
      message: Type.String(),
    }),
    { description: 'Events left out (a stale page loses only its stale events).' },
  ),
});
