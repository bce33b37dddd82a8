import { Type } from 'typebox';

/**
 * `GET /projects/:id/analytics` (docs/api.md, Analytics), as TypeBox schemas the route documents with and the
 * owner console types itself with.
 */

/** The longest range one analytics read covers, in days (docs/api.md, Analytics). */
export const MAX_ANALYTICS_DAYS = 366;

/** Checked by the service (analytics-query.ts), so that each refusal names its parameter in words. */
export const AnalyticsQuery = Type.Object({
  from: Type.Optional(
    Type.String({ maxLength: 10, description: 'First UTC day, YYYY-MM-DD (default: 29 days before to).' }),
  ),
  to: Type.Optional(
    Type.String({ maxLength: 10, description: 'Last UTC day, YYYY-MM-DD, included (default: today).' }),
  ),
  top: Type.Optional(Type.String({ maxLength: 10, description: 'How many top choices, 1 to 50 (default 10).' })),
});

const counters = {
  views: Type.Integer({ description: 'view events: payloads shown.' }),
  sessions: Type.Integer({ description: 'Distinct sessionIds per day (summed over days in totals).' }),
  optionChanges: Type.Integer({ description: 'option.changed events.' }),
  submissions: Type.Integer({ description: 'Requests submitted (headless submits too).' }),
  animations: Type.Integer({ description: 'animation.triggered events.' }),
  arOpens: Type.Integer({ description: 'ar.opened events.' }),
  saves: Type.Integer({ description: 'configuration.saved events.' }),
  cartAdds: Type.Integer({ description: 'Cart configurations created, repeats included.' }),
};

export const AnalyticsReply = Type.Object(
  {
    success: Type.Literal(true),
    from: Type.String(),
    to: Type.String(),
    totals: Type.Object(counters),
    days: Type.Array(Type.Object({ date: Type.String(), ...counters }), {
      description: 'Every day of the range, oldest first, zeros included.',
    }),
    topChoices: Type.Array(
      Type.Object({
        blockId: Type.String(),
        blockName: Type.Union([Type.String(), Type.Null()], {
          description: 'Current name; null when the block is gone.',
        }),
        choiceId: Type.String(),
        label: Type.Union([Type.String(), Type.Null()], {
          description: 'Current label; null when the choice is gone.',
        }),
        count: Type.Integer({ description: 'option.changed events to this choice over the range.' }),
      }),
    ),
    conversion: Type.Union([Type.Number(), Type.Null()], {
      description: 'Submissions ÷ sessions over the range, 4 decimals; null without sessions.',
    }),
  },
  {
    description:
      `Visitor counters per UTC day, both ends included, at most ${MAX_ANALYTICS_DAYS} days. ` +
      'Read from day counters, never from raw events.',
  },
);
