import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Role } from '../core/platform/db/schema/index.js';
import { createTokenVerifier } from '../core/platform/tokens.js';
import { forbidden, unauthorized } from '../core/domain/errors.js';
import { UUID } from '../core/domain/ids.js';

/** Who is calling, and as what, in which workspace. Set by the `access` hooks below. */
export interface AuthContext {
  kind: 'session' | 'apiKey';
  /** The person (sessions); null for API keys. */
  personId: string | null;
  workspaceId: string;
  role: Role;
  apiKeyId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyInstance {
    /** Builds the onRequest hook that authenticates and checks the access a route needs. */
    access: (level: AccessLevel, options?: { sessionOnly?: boolean }) => onRequestAsyncHookHandler;
  }
}

/**
 * read: any member. write: editor and up. secrets: editor and up (webhooks hold signing secrets,
 * so viewers get nothing). manage: owners and admins, with a session (API key management).
 */
export type AccessLevel = 'read' | 'write' | 'secrets' | 'manage';

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };
const NEEDED: Record<AccessLevel, number> = { read: 0, write: 1, secrets: 1, manage: 2 };
/** API keys act with editor rights in their workspace: they automate, they do not administer. */
const API_KEY_ROLE: Role = 'editor';

/** The credential of an `Authorization: Bearer <credential>` header, if that is what it holds. */
export const bearerToken = (header: string | undefined) => /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim();

/**
 * Paths that take a session token only (the online library routes, docs/libraries.md). An X-API-Key
 * never reaches them, whether or not the route exists in this build or a bearer is also sent.
 */
const SESSION_ONLY_PATHS = /^\/external-(assets|providers)(\/|\?|$)/;

/** The path as the router matches it: `/%65xternal-assets` is `/external-assets`. */
function decodedPath(url: string): string {
  const path = url.split('?')[0];
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const sessionRequired = () =>
  unauthorized('session_required', 'This endpoint needs a session token; API keys are not accepted here.');

export default fp(
  async function auth(app: FastifyInstance) {
    const { config, services } = app.deps;
    const verifier = createTokenVerifier(config.auth);

    // A root hook, so it also runs before the 404 handler and before any route's own hooks.
    app.addHook('onRequest', async (request) => {
      if (request.headers['x-api-key'] !== undefined && SESSION_ONLY_PATHS.test(decodedPath(request.url)))
        throw sessionRequired();
    });

    async function fromApiKey(request: FastifyRequest, key: string): Promise<AuthContext> {
      const row = await services.apiKeys.authenticate(key);
      if (!row) throw unauthorized('unauthorized', 'The API key is not valid.');
      const requested = request.headers['x-workspace-id'];
      if (typeof requested === 'string' && requested !== row.workspaceId)
        throw forbidden('This API key belongs to another workspace.');
      return { kind: 'apiKey', personId: null, workspaceId: row.workspaceId, role: API_KEY_ROLE, apiKeyId: row.id };
    }

    async function fromSession(request: FastifyRequest, token: string): Promise<AuthContext> {
      let claims;
      try {
        claims = await verifier.verify(token);
      } catch {
        throw unauthorized('unauthorized', 'The access token is missing, expired or invalid.');
      }
      const email = typeof claims.email === 'string' ? claims.email : null;
      const requested = request.headers['x-workspace-id'];
      // Anything but a workspace the person belongs to is the same 403, malformed ids included.
      if (requested !== undefined && (typeof requested !== 'string' || !UUID.test(requested)))
        throw forbidden('You are not a member of this workspace.');
      const { person, workspaceId, role } = await services.workspaces.resolveMember(
        claims.sub,
        email,
        requested ?? null,
      );
      return { kind: 'session', personId: person.id, workspaceId, role };
    }

    app.decorateRequest('auth', null as unknown as AuthContext);
    app.decorate('access', (level: AccessLevel, options: { sessionOnly?: boolean } = {}) => {
      const sessionOnly = options.sessionOnly || level === 'manage';
      return async function authenticate(request: FastifyRequest) {
        const apiKey = request.headers['x-api-key'];
        if (apiKey !== undefined && sessionOnly) throw sessionRequired();
        const bearer = bearerToken(request.headers.authorization);
        if (typeof apiKey === 'string' && apiKey) request.auth = await fromApiKey(request, apiKey);
        else if (bearer) request.auth = await fromSession(request, bearer);
        else throw unauthorized('unauthorized', 'Send Authorization: Bearer <access token> or X-API-Key.');
        if (RANK[request.auth.role] < NEEDED[level]) {
          throw forbidden(
            level === 'secrets'
              ? 'Viewers cannot access webhooks.'
              : level === 'manage'
                ? 'Only owners and admins can do this.'
                : 'Viewers cannot change anything.',
          );
        }
      };
    });
  },
  { name: 'auth', dependencies: [] },
);
