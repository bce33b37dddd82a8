import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errors } from '../../schemas/common.js';
import { MeReply } from '../../core/wire/me.js';

/**
 * `GET /me`: the signed-in person and their workspaces, for a workspace switcher. Sessions only: an API key
 * belongs to one workspace and to nobody.
 */
export default async function meRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { workspaces } = app.deps.services;

  app.get(
    '/me',
    {
      onRequest: app.access('read', { sessionOnly: true }),
      schema: {
        tags: ['workspace'],
        summary: 'The signed-in person and their workspaces',
        security: [{ bearer: [] }],
        response: {
          200: MeReply,
          ...errors(401, 403),
        },
      },
    },
    async (request) => {
      const { person, workspaces: rows } = await workspaces.describePerson(request.auth.personId!);
      return {
        success: true,
        person: { id: person.id, email: person.email },
        workspace: { id: request.auth.workspaceId, role: request.auth.role },
        workspaces: rows.map((row) => ({
          id: row.workspaceId,
          name: row.name,
          role: row.role,
          billingStatus: row.billingStatus,
          isDefault: row.workspaceId === person.defaultWorkspaceId,
        })),
      };
    },
  );
}
