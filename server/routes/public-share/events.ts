import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { shareRequestOf } from './share-request.js';
import { ShareParams, UnavailableBody } from '../../schemas/shares.js';
import { VisitorEventsBody, VisitorEventsHeaders, VisitorEventsReply } from '../../schemas/visitor-events.js';
import { errors } from '../../schemas/common.js';
import { per } from '../../schemas/rate-text.js';
import { invalidRequest } from '../../core/domain/errors.js';
import { VISITOR_EVENT_LIMITS, type VisitorEventBatch } from '../../core/wire/configurator/index.js';
import { createEventsBudget } from '../../core/services/public-share/events-budget.js';
import { readBudgetExceeded, readBudgetHeaders } from '../../core/services/public-share/read-budget.js';

/** A body that is not JSON: refused as 400 only after the budget and share checks, as their order says. */
class UnreadableBody {
  constructor(readonly message: string) {}
}

/** Units a call spends: one per event, whatever the rest of the body says (a bad body spends at least one). */
function eventsIn(body: unknown): number {
  const events = (body as { events?: unknown } | undefined)?.events;
  return Array.isArray(events) ? Math.min(Math.max(events.length, 1), VISITOR_EVENT_LIMITS.eventsPerCall) : 1;
}

/** Each event's `data` within its 2 KB as JSON, else the 400 that names it. */
function checkDataSizes(events: ReadonlyArray<{ data?: object }>) {
  const details = events.flatMap((event, index) => {
    let bytes: number;
    try {
      bytes = Buffer.byteLength(JSON.stringify(event.data ?? {}));
    } catch {
      bytes = Infinity; // nested too deep to serialize
    }
    return bytes > VISITOR_EVENT_LIMITS.dataBytes
      ? [
          {
            field: `body.events.${index}.data`,
            message: `must be at most ${VISITOR_EVENT_LIMITS.dataBytes} bytes as JSON`,
          },
        ]
      : [];
  });
  if (details.length > 0) throw invalidRequest(`${details[0].field} ${details[0].message}`, details);
}

/**
 * `POST /share/:projectId/:token/events` (docs/api.md, Visitor events). The body (at most 32 KB) is read first because
 * the budget counts its events; text/plain is parsed here alone because sendBeacon sends it without a preflight.
 */
export default async function visitorEventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, services } = app.deps;
  const budget = createEventsBudget({
    redis: app.deps.redis,
    prefix: config.queuePrefix,
    rate: config.rateLimits.events,
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'string', bodyLimit: VISITOR_EVENT_LIMITS.bodyBytes },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, new UnreadableBody('The body is empty: send { sessionId, events }.'));
      parseJson(request, text, (error, value) =>
        done(null, error ? new UnreadableBody('The body is not valid JSON.') : value),
      );
    },
  );

  app.post(
    '/share/:projectId/:token/events',
    {
      bodyLimit: VISITOR_EVENT_LIMITS.bodyBytes,
      // After parsing, before the schema: the checks that come before the body's shape.
      preValidation: async (request: FastifyRequest, reply) => {
        const decision = await budget.spend(request.ip, eventsIn(request.body));
        if (!decision.allowed) throw readBudgetExceeded(decision);
        if (decision.remaining !== undefined) reply.headers(readBudgetHeaders(decision));
        request.shareAccess = await services.publicShare.authorize(shareRequestOf(request));
        if (request.body instanceof UnreadableBody) throw invalidRequest(request.body.message);
      },
      schema: {
        tags: ['public share'],
        summary: "Record a page's visitor events (public).",
        description:
          'Same headers as the read; the BFF proxies it as submit and refuses a body over 32 KB itself (413). ' +
          "Checks in the read's order: public key (401), events budget (429 with Retry-After; RATE_LIMIT_EVENTS: " +
          `${per(config.rateLimits.events)} events per client IP, a call spends one unit per event, its own counter; ` +
          'a call that would pass it is refused whole and spends nothing), project/token/enabled (404), ' +
          'billing (402), embed host (403), password (401), then the body (400 invalid_request with details). ' +
          'Each event is checked against the current revision: one naming an unknown type, block, choice or ' +
          'animation, or with bad data, is left out and listed in rejected; the others are recorded (202). ' +
          'Days and ordering use the receive time; `at` is kept when from 24 hours before to 5 minutes after it, ' +
          'else replaced by it. Only the listed fields are stored, never the IP address or user agent. ' +
          'option.changed, price.calculated (the latest of a batch only; its webhook carries the price the server ' +
          "computes next to the page's total), viewer.screenshot and animation.triggered reach subscribed webhooks.",
        security: [{ publicKey: [] }],
        consumes: ['application/json', 'text/plain'],
        params: ShareParams,
        headers: VisitorEventsHeaders,
        body: VisitorEventsBody,
        response: { 202: VisitorEventsReply, ...errors(400, 401, 403, 404, 413, 415, 429, 503), 402: UnavailableBody },
      },
    },
    async (request, reply) => {
      checkDataSizes(request.body.events);
      // Passed as parsed: the schema's default gives every event its `data` object.
      const answer = await services.visitorEvents.record(request.shareAccess!, request.body as VisitorEventBatch);
      return reply.code(202).send(answer);
    },
  );
}
