import type { BillingStatus, Person, Role, Workspace } from '../platform/db/schema/index.js';
import { createAccountRepository } from '../repositories/accounts.js';
import { AppError, forbidden, notFound } from '../domain/errors.js';
import { noticeShareChange, type ServiceDeps } from './service-deps.js';

/** The plan's 3D model limit of a new workspace; `npm run admin` changes it per workspace. */
const NEW_WORKSPACE_MODEL_LIMIT = 100;

/**
 * People and workspaces: sign-in (a person seen for the first time gets a personal workspace
 * they own), membership and roles, and the operator's changes (billing, model limit).
 */
export function createWorkspaceService(deps: ServiceDeps) {
  const accounts = createAccountRepository(deps.db);

  async function ensurePerson(subject: string, email: string | null): Promise<Person> {
    const existing = await accounts.findPersonBySubject(subject);
    if (existing) return existing;
    return deps.inTransaction(async ({ tx }) => {
      const created = await accounts.insertPersonWithWorkspace(tx, {
        subject,
        email,
        modelLimit: NEW_WORKSPACE_MODEL_LIMIT,
      });
      // Another request created the same person a moment ago.
      return created ?? (await accounts.findPersonBySubject(subject, tx))!;
    });
  }

  return {
    ensurePerson,

    /** A verified token's person and their role in the workspace asked for (default their own); 403 if not a member. */
    async resolveMember(
      subject: string,
      email: string | null,
      requestedWorkspaceId: string | null,
    ): Promise<{ person: Person; workspaceId: string; role: Role }> {
      const person = await ensurePerson(subject, email);
      const workspaceId = requestedWorkspaceId ?? person.defaultWorkspaceId;
      const role = workspaceId ? await accounts.findRole(workspaceId, person.id) : null;
      if (!workspaceId || !role) throw forbidden('You are not a member of this workspace.');
      return { person, workspaceId, role };
    },

    /** The person with this e-mail (created with a personal workspace when missing). */
    async ensurePersonByEmail(email: string): Promise<Person> {
      return ensurePerson((await accounts.findSubjectByEmail(email)) ?? `local|${email}`, email);
    },

    /** Adds (or re-roles) a member of an existing workspace; refuses to leave it without an owner. */
    async setMember(workspaceId: string, personId: string, role: Role): Promise<void> {
      if (!(await accounts.findWorkspace(workspaceId))) throw notFound('Workspace');
      if (
        role !== 'owner' &&
        (await accounts.findRole(workspaceId, personId)) === 'owner' &&
        (await accounts.countOtherOwners(workspaceId, personId)) === 0
      ) {
        throw new AppError(
          409,
          'conflict',
          `the person is the only owner of workspace ${workspaceId}; refusing to make them ${role}`,
        );
      }
      await accounts.setMembership(workspaceId, personId, role);
    },

    /** The signed-in person and every workspace they belong to (the console's workspace switcher). */
    async describePerson(personId: string) {
      const person = await accounts.findPerson(personId);
      if (!person) throw notFound('Person');
      return { person, workspaces: await accounts.listMemberships(personId) };
    },

    async exists(workspaceId: string): Promise<boolean> {
      return (await accounts.findWorkspace(workspaceId)) !== null;
    },

    /**
     * Operator changes with no public API. A billing change alters every public share of the
     * workspace (402 while locked), so it is announced once committed.
     */
    async change(
      workspaceId: string,
      changes: { billingStatus?: BillingStatus; modelLimit?: number },
    ): Promise<Workspace> {
      const row = await deps.inTransaction(async ({ tx, afterCommit }) => {
        const updated = await accounts.updateWorkspace(tx, workspaceId, changes);
        if (updated && changes.billingStatus) afterCommit(noticeShareChange(deps, { reason: 'billing', workspaceId }));
        return updated;
      });
      if (!row) throw notFound('Workspace');
      return row;
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
