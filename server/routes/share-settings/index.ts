import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createShareRepository, newShareToken, toSettingsBody } from '../../core/repositories/shares.js';
import { createProjectRepository } from '../../core/repositories/projects.js';
import { ShareSettingsInput, ShareSettingsReply } from '../../schemas/shares.js';
import { IdParams, errors } from '../../schemas/common.js';
import { invalidRequest, notFound } from '../../core/domain/errors.js';
import { parseHostRules } from '../../core/domain/embed-hosts.js';
import { hashPassword } from '../../core/domain/passwords.js';

/**
 * Owner share settings (interface "Project sharing", contract section 4). Every route answers
 * `{ success, settings }`; the password is write-only. Reading needs any seat, changing a seat
 * that can write.
 */
export default async function shareSettingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const repo = createShareRepository(app.deps.db);
  const projectRepo = createProjectRepository(app.deps.db);
  const tags = ['share settings'];
  const reply = { 200: ShareSettingsReply, ...errors(400, 401, 403, 404) };

  app.get(
    '/projects/:id/share',
    { onRequest: app.access('read'), schema: { tags, summary: 'Read the share settings (created with the defaults on first use).', params: IdParams, response: reply } },
    async (request) => {
      const row = await repo.get(request.auth.workspaceId, request.params.id);
      if (!row) throw notFound('Project');
      return { success: true, settings: toSettingsBody(row) };
    },
  );

  app.post(
    '/projects/:id/share/enable',
    { onRequest: app.access('write'), schema: { tags, summary: 'Turn the share link on (emits project.published when it was off).', params: IdParams, response: reply } },
    async (request) => {
      const row = await repo.change(request.auth.workspaceId, request.params.id, (current) => (current.isEnabled ? null : { isEnabled: true }));
      if (!row) throw notFound('Project');
      return { success: true, settings: toSettingsBody(row) };
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
      const { isEnabled = false, requirePassword = false, password, domainRestrictions = [] } = request.body;
      const hosts = parseHostRules(domainRestrictions);
      if (hosts.invalid.length > 0) {
        const details = hosts.invalid.map((index) => ({ field: `body.domainRestrictions.${index}`, message: 'must be a host name, *.host or host:port' }));
        throw invalidRequest(`${details[0].field} ${details[0].message}`, details);
      }
      if (requirePassword && password === undefined) {
        throw invalidRequest('body.password is required when requirePassword is true', [{ field: 'body.password', message: 'is required when requirePassword is true' }]);
      }
      // Hashing costs about half a second: do it before taking the row lock, and only for a
      // project the caller can see. A password sent without requirePassword is not stored.
      let passwordHash: string | null = null;
      if (requirePassword && password !== undefined) {
        if (!(await projectRepo.exists(request.auth.workspaceId, request.params.id))) throw notFound('Project');
        passwordHash = await hashPassword(password);
      }
      const row = await repo.change(request.auth.workspaceId, request.params.id, () => ({
        isEnabled,
        requirePassword,
        passwordHash,
        domainRestrictions: hosts.rules,
      }));
      if (!row) throw notFound('Project');
      return { success: true, settings: toSettingsBody(row) };
    },
  );

  app.post(
    '/projects/:id/share/regenerate',
    { onRequest: app.access('write'), schema: { tags, summary: 'Rotate the share token; the old one stops working at once.', params: IdParams, response: reply } },
    async (request) => {
      const row = await repo.change(request.auth.workspaceId, request.params.id, () => ({ shareToken: newShareToken() }));
      if (!row) throw notFound('Project');
      return { success: true, settings: toSettingsBody(row) };
    },
  );
}
