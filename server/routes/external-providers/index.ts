import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errors } from '../../schemas/common.js';
import { CallbackQuery, ConnectReply, ConnectionReply, DisconnectReply } from '../../core/wire/libraries.js';

/**
 * The person's library_b account: status, the OAuth authorize flow (connect, then the
 * library's redirect to the callback) and disconnect. Tokens never appear in any answer.
 */
export default async function externalProviderRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { libraryConnections } = app.deps.services;
  const tags = ['libraries'];
  const base = '/external-providers/library_b';

  app.get(
    `${base}/connection`,
    {
      onRequest: app.access('read', { sessionOnly: true }),
      schema: {
        tags,
        summary: "The person's library_b connection",
        response: { 200: ConnectionReply, ...errors(401, 403) },
      },
    },
    async (request) => ({ success: true, ...(await libraryConnections.status(request.auth.personId!)) }),
  );

  app.post(
    `${base}/connect`,
    {
      onRequest: app.access('read', { sessionOnly: true }),
      schema: {
        tags,
        summary: 'Start connecting a library_b account',
        description:
          "Answers the library's authorize URL (single use, valid 10 minutes). 503 provider_not_configured when " +
          'the platform has no library_b OAuth client.',
        response: { 200: ConnectReply, ...errors(401, 403, 503) },
      },
    },
    async (request) => ({ success: true, url: await libraryConnections.connect(request.auth.personId!) }),
  );

  app.get(
    `${base}/callback`,
    {
      schema: {
        tags,
        summary: "The library's redirect back after authorizing",
        description:
          'Exchanges the code, stores the tokens sealed (AES-256-GCM) and redirects the browser to DASHBOARD_URL ' +
          'with status=connected or status=error. A used or expired state gives status=error.',
        querystring: CallbackQuery,
        response: { 302: { description: 'To DASHBOARD_URL?provider=library_b&status=connected|error', type: 'null' } },
      },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').redirect(await libraryConnections.callback(request.query), 302),
  );

  app.delete(
    `${base}/connection`,
    {
      onRequest: app.access('read', { sessionOnly: true }),
      schema: {
        tags,
        summary: 'Disconnect the library_b account',
        response: { 200: DisconnectReply, ...errors(401, 403) },
      },
    },
    async (request) => {
      await libraryConnections.disconnect(request.auth.personId!);
      return { success: true, connected: false as const };
    },
  );
}
