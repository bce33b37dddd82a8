import type { FastifyRequest } from 'fastify';
import type { SavedBy } from '../../core/services/projects.js';

/** Whose credentials save: the person of a session, or the API key (whose creator the revision records). */
export const savedByOf = ({ auth }: FastifyRequest): SavedBy => ({
  personId: auth.personId,
  ...(auth.apiKeyId ? { apiKeyId: auth.apiKeyId } : {}),
});
