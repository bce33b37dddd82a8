import type { FastifyInstance } from 'fastify';
import { loadServerConfig, type ServerConfig } from '../../server/config.js';
import { buildApp } from '../../server/app.js';
import { waitForRedis } from '#core/platform/redis.js';
import { closeDeps, createDeps, type AppDeps } from '../../server/deps.js';
import { createAccountRepository } from '#core/repositories/accounts.js';
import { issueAccessToken } from '#core/platform/tokens.js';
import type { Role } from '#core/platform/db/schema/index.js';
import { createTestEnv, freePort, type TestEnv } from './test-env.js';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  deps: AppDeps;
  config: ServerConfig;
  env: TestEnv;
  /** A person with a personal workspace (owner) and a token for it. */
  person(email: string): Promise<TestPerson>;
  /** Adds a person to a workspace with a role; the token selects it with X-Workspace-Id. */
  member(workspaceId: string, email: string, role: Role): Promise<TestPerson>;
  close(): Promise<void>;
}

export interface TestPerson {
  token: string;
  personId: string;
  workspaceId: string;
  /** Headers for fetch: Authorization (and X-Workspace-Id for memberships). */
  headers: Record<string, string>;
}

/** The real API on a real port, over a database and queue prefix of its own. */
export async function startTestServer(overrides: Record<string, string> = {}): Promise<TestServer> {
  const port = await freePort();
  const env = await createTestEnv({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...overrides });
  const config = loadServerConfig(env.env);
  const deps = createDeps(config);
  const app = await buildApp(deps, { logger: false });
  await waitForRedis(deps.redis);
  await app.listen({ port, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  const server: TestServer = {
    url,
    app,
    deps,
    config,
    env,
    async person(email) {
      const person = await deps.services.workspaces.ensurePerson(`test|${email}`, email);
      const token = await issueAccessToken(config.auth, person.subject, email);
      return {
        token,
        personId: person.id,
        workspaceId: person.defaultWorkspaceId!,
        headers: { authorization: `Bearer ${token}` },
      };
    },
    async member(workspaceId, email, role) {
      const own = await server.person(email);
      await createAccountRepository(deps.db).setMembership(workspaceId, own.personId, role);
      return { ...own, workspaceId, headers: { ...own.headers, 'x-workspace-id': workspaceId } };
    },
    async close() {
      await app.close();
      await closeDeps(deps);
      await env.cleanup();
    },
  };
  return server;
}
