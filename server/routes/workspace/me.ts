import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errors } from '../../schemas/common.js';

const Membership = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  role: Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]),
  billingStatus: Type.Union([Type.Literal('active'), Type.Literal('locked')]),
  isDefault: Type.Boolean(),
});

/**
 * `GET /me`: the signed-in person and the workspaces they belong to, so a client (the owner
 * console's workspace switcher) can offer them and send `X-Workspace-Id`. A session only: an API
 * key belongs to one workspace and to nobody.
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
          200: Type.Object({
            success: Type.Boolean(),
            person: Type.Object({ id: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }),
            workspace: Type.Object({ id: Type.String(), role: Membership.properties.role }),
            workspaces: Type.Array(Membership),
          }),
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
