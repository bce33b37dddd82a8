import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { ServerConfig } from '../config.js';
import type { Db } from '../core/platform/db/client.js';
import { memberships, people, workspaces, type Role } from '../core/platform/db/schema/index.js';
import { ensurePerson, findRole, setMembership } from '../core/repositories/accounts.js';
import { issueAccessToken } from '../core/platform/tokens.js';
import { CliError } from './run-cli.js';

/** Development access tokens live this long. */
export const DEV_TOKEN_TTL = '24h';

export interface DevTokenRequest {
  /** Lower-cased e-mail of the person. */
  email: string;
  /** An existing workspace the person joins (or is re-roled in). */
  workspaceId?: string;
  /** Their role there (default editor). */
  role?: Role;
}

export interface DevToken {
  token: string;
  userId: string;
  /** The person's personal workspace: the token's default. */
  workspaceId: string;
}

/** The subject of a person known by this e-mail (whoever signed in first), else a stable local one. */
async function subjectFor(db: Db, email: string): Promise<string> {
  const existing = await db.query.people.findFirst({
    where: sql`lower(${people.email}) = ${email}`,
    orderBy: asc(people.createdAt),
    columns: { subject: true },
  });
  return existing?.subject ?? `local|${email}`;
}

/** Re-roling the only owner would leave a workspace nobody can administer. */
async function assertNotLastOwner(db: Db, workspaceId: string, personId: string, role: Role): Promise<void> {
  if (role === 'owner' || (await findRole(db, workspaceId, personId)) !== 'owner') return;
  const others = await db.$count(memberships, and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, 'owner'), ne(memberships.personId, personId)));
  if (others === 0) throw new CliError(`the person is the only owner of workspace ${workspaceId}; refusing to make them ${role}`);
}

/**
 * The person behind `npm run token` (and the demo owner of `npm start`): created with a personal
 * workspace when missing, optionally added to another workspace, with a fresh 24 h token.
 * Nothing is written when the target workspace does not exist.
 */
export async function issueDevToken(db: Db, config: Pick<ServerConfig, 'auth' | 'defaultModelLimit'>, request: DevTokenRequest): Promise<DevToken> {
  const { email, workspaceId } = request;
  const role = request.role ?? 'editor';
  if (workspaceId) {
    const target = await db.query.workspaces.findFirst({ where: eq(workspaces.id, workspaceId), columns: { id: true } });
    if (!target) throw new CliError(`workspace ${workspaceId} does not exist`);
  }
  const person = await ensurePerson(db, await subjectFor(db, email), email, config.defaultModelLimit);
  if (!person.defaultWorkspaceId) throw new CliError(`${email} has no personal workspace`);
  if (workspaceId) {
    await assertNotLastOwner(db, workspaceId, person.id, role);
    await setMembership(db, workspaceId, person.id, role);
  }
  const token = await issueAccessToken(config.auth, person.subject, person.email ?? email, DEV_TOKEN_TTL);
  return { token, userId: person.id, workspaceId: person.defaultWorkspaceId };
}
