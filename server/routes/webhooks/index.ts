import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { toDeliveryRecord, toWebhookBody } from '../presenters/webhook-body.js';
import { errors } from '../../schemas/common.js';
import {
  DeliveriesReply,
  DeliveryParams,
  ProjectParams,
  RedeliverReply,
  TestReply,
  TriggerInput,
  TriggerReply,
  WebhookInput,
  WebhookListReply,
  WebhookParams,
  WebhookReply,
} from '../../schemas/webhooks.js';
import { Type } from 'typebox';

/**
 * Project webhooks (docs/api.md, Webhooks). Every route needs a seat that
 * can write (viewers get 403: webhooks hold signing secrets); API keys act as editors.
 */
export default async function webhookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks } = app.deps.services;
  const tags = ['webhooks'];
  const onRequest = app.access('secrets');

  app.get(
    '/projects/:projectId/webhooks',
    {
      onRequest,
      schema: {
        tags,
        summary: "List the project's webhooks (secrets are never returned).",
        params: ProjectParams,
        response: { 200: WebhookListReply, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      const rows = await webhooks.list(request.auth.workspaceId, request.params.projectId);
      return { success: true, webhooks: rows.map(toWebhookBody) };
    },
  );

  app.put(
    '/projects/:projectId/webhooks/:webhookId',
    {
      onRequest,
      schema: {
        tags,
        summary:
          'Create (201) or replace (200) a webhook; omitted fields take their defaults, an omitted secret is kept ' +
          '(or generated and answered once on create).',
        params: WebhookParams,
        body: WebhookInput,
        response: { 200: WebhookReply, 201: WebhookReply, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { projectId, webhookId } = request.params;
      const result = await webhooks.put(request.auth.workspaceId, projectId, webhookId, request.body);
      return reply.code(result.created ? 201 : 200).send({
        success: true,
        webhook: toWebhookBody(result.webhook),
        ...(result.secret ? { secret: result.secret } : {}),
      });
    },
  );

  app.delete(
    '/projects/:projectId/webhooks/:webhookId',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Delete a webhook with its delivery log; queued deliveries are dropped.',
        params: WebhookParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await webhooks.delete(request.auth.workspaceId, request.params.projectId, request.params.webhookId);
      return { success: true };
    },
  );

  app.post(
    '/projects/:projectId/webhooks/:webhookId/test',
    {
      onRequest,
      schema: {
        tags,
        summary:
          'Send one webhook.test delivery now (10 s timeout, no retries) and answer how the endpoint replied; it ' +
          'is logged.',
        params: WebhookParams,
        response: { 200: TestReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { deliveryId, outcome } = await webhooks.test(
        request.auth.workspaceId,
        request.params.projectId,
        request.params.webhookId,
      );
      return {
        success: true,
        test: {
          statusCode: outcome.statusCode,
          statusText: outcome.statusText,
          delivered: outcome.delivered,
          deliveryId,
          durationMs: outcome.durationMs,
          error: outcome.error,
        },
      };
    },
  );

  app.get(
    '/projects/:projectId/webhooks/:webhookId/deliveries',
    {
      onRequest,
      schema: {
        tags,
        summary: "The webhook's delivery log: its last 50 attempts, newest first.",
        params: WebhookParams,
        response: { 200: DeliveriesReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const rows = await webhooks.deliveries(
        request.auth.workspaceId,
        request.params.projectId,
        request.params.webhookId,
      );
      return { success: true, deliveries: rows.map(toDeliveryRecord) };
    },
  );

  app.post(
    '/projects/:projectId/webhooks/trigger',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Fire an event by hand to every enabled webhook subscribed to it (202: delivered in the background).',
        params: ProjectParams,
        body: TriggerInput,
        response: { 202: TriggerReply, ...errors(400, 401, 403, 404, 413) },
      },
    },
    async (request, reply) => {
      const { event, data = {} } = request.body;
      const result = await webhooks.trigger(
        request.auth.workspaceId,
        request.params.projectId,
        event,
        data as Record<string, unknown>,
      );
      return reply.code(202).send({ success: true, event, ...result });
    },
  );

  app.post(
    '/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      onRequest,
      schema: {
        tags,
        summary:
          'Send a finished delivery once more, with the same delivery id (202: sent in the background; not retried).',
        params: DeliveryParams,
        response: { 202: RedeliverReply, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { projectId, webhookId, deliveryId } = request.params;
      const result = await webhooks.redeliver(request.auth.workspaceId, projectId, webhookId, deliveryId);
      return reply.code(202).send({ success: true, ...result });
    },
  );
}
