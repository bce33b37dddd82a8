import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { toSettingsBody } from '../presenters/share-settings-body.js';
import { ShareSettingsInput, ShareSettingsReply } from '../../schemas/shares.js';
import { IdParams, errors } from '../../schemas/common.js';

/**
 * Owner share settings (docs/api.md, Share settings); the password is write-only.
 * Reading needs any seat, changing a seat that can write.
 */
export default async function shareSettingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { shares } = app.deps.services;
  const tags = ['share settings'];
  const reply = { 200: ShareSettingsReply, ...errors(400, 401, 403, 404) };

  app.get(
    '/projects/:id/share',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: 'Read the share settings (created with the defaults on first use).',
        params: IdParams,
        response: reply,
      },
    },
    async (request) => {
      return { success: true, settings: toSettingsBody(await shares.get(request.auth.workspaceId, request.params.id)) };
    },
  );

  app.post(
    '/projects/:id/share/enable',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        summary: 'Turn the share link on (emits project.published when it was off).',
        params: IdParams,
        response: reply,
      },
    },
    async (request) => {
      return {
        success: true,
        settings: toSettingsBody(await shares.enable(request.auth.workspaceId, request.params.id)),
      };
    },
  );

  app.put(
    '/projects/:id/share',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        summary: 'Replace the whole settings object; omitted fields revert to their defaults, the token is kept.',
        params: IdParams,
        body: ShareSettingsInput,
        response: reply,
      },
    },
    async (request) => {
      const row = await shares.replace(request.auth.workspaceId, request.params.id, request.body);
      return { success: true, settings: toSettingsBody(row) };
    },
  );

  app.post(
    '/projects/:id/share/regenerate',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        summary: 'Rotate the share token; the old one stops working at once.',
        params: IdParams,
        response: reply,
      },
    },
    async (request) => {
      return {
        success: true,
        settings: toSettingsBody(await shares.regenerate(request.auth.workspaceId, request.params.id)),
      };
    },
  );
}
