import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import {
  memberships,
  people,
  workspaces,
  type BillingStatus,
  type Person,
  type Role,
  type Workspace,
} from '../platform/db/schema/index.js';

/**
 * People, workspaces and memberships: who someone is and where they work. Rows in, rows out;
 * the workspaces service owns the transactions around them.
 */

export function createAccountRepository(db: Db) {
  return {
    async findPerson(personId: string): Promise<Person | null> {
      return (await db.query.people.findFirst({ where: eq(people.id, personId) })) ?? null;
    },

    async findPersonBySubject(subject: string, executor: Executor = db): Promise<Person | null> {
      return (await executor.query.people.findFirst({ where: eq(people.subject, subject) })) ?? null;
    },

    /** The subject of the person who first signed in with this (lower-cased) e-mail, if any. */
    async findSubjectByEmail(email: string): Promise<string | null> {
      const row = await db.query.people.findFirst({
        where: sql`lower(${people.email}) = ${email}`,
        orderBy: asc(people.createdAt),
        columns: { subject: true },
      });
      return row?.subject ?? null;
    },

    /**
     * Inserts a person with a personal workspace they own; null when another request inserted the
     * same subject a moment ago. Call inside a transaction.
     */
    async insertPersonWithWorkspace(
      tx: Executor,
      input: { subject: string; email: string | null; modelLimit: number },
    ): Promise<Person | null> {
      const [inserted] = await tx
        .insert(people)
        .values({ subject: input.subject, email: input.email })
        .onConflictDoNothing({ target: people.subject })
        .returning();
      if (!inserted) return null;
      const [workspace] = await tx
        .insert(workspaces)
        .values({
          name: input.email ? `${input.email}'s workspace` : 'Personal workspace',
          modelLimit: input.modelLimit,
        })
        .returning();
      await tx.insert(memberships).values({ workspaceId: workspace.id, personId: inserted.id, role: 'owner' });
      const [person] = await tx
        .update(people)
        .set({ defaultWorkspaceId: workspace.id })
        .where(eq(people.id, inserted.id))
        .returning();
      return person;
    },

    async findRole(workspaceId: string, personId: string): Promise<Role | null> {
      const row = await db.query.memberships.findFirst({
        where: and(eq(memberships.workspaceId, workspaceId), eq(memberships.personId, personId)),
        columns: { role: true },
      });
      return row?.role ?? null;
    },

    /** Adds (or re-roles) a member. */
    async setMembership(workspaceId: string, personId: string, role: Role): Promise<void> {
      await db
        .insert(memberships)
        .values({ workspaceId, personId, role })
        .onConflictDoUpdate({
          target: [memberships.workspaceId, memberships.personId],
          set: { role, updatedAt: new Date() },
        });
    },

    /** Owners of the workspace other than this person. */
    async countOtherOwners(workspaceId: string, personId: string): Promise<number> {
      return db.$count(
        memberships,
        and(
          eq(memberships.workspaceId, workspaceId),
          eq(memberships.role, 'owner'),
          ne(memberships.personId, personId),
        ),
      );
    },

    async findWorkspace(workspaceId: string): Promise<Workspace | null> {
      return (await db.query.workspaces.findFirst({ where: eq(workspaces.id, workspaceId) })) ?? null;
    },

    /** Operator changes to a workspace; null when it does not exist. */
    async updateWorkspace(
      tx: Executor,
      workspaceId: string,
      changes: { billingStatus?: BillingStatus; modelLimit?: number },
    ): Promise<Workspace | null> {
      const [row] = await tx
        .update(workspaces)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(workspaces.id, workspaceId))
        .returning();
      return row ?? null;
    },

    /** E-mail addresses of a workspace's owners: who hears about a request when the project names nobody. */
    async workspaceOwnerEmails(workspaceId: string): Promise<string[]> {
      const rows = await db
        .select({ email: people.email })
        .from(memberships)
        .innerJoin(people, eq(people.id, memberships.personId))
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, 'owner')));
      return rows.map((row) => row.email).filter((email): email is string => Boolean(email));
    },

    /** The workspaces a person belongs to, with their role in each, by name. */
    async listMemberships(
      personId: string,
    ): Promise<Array<{ workspaceId: string; name: string; role: Role; billingStatus: BillingStatus }>> {
      return db
        .select({
          workspaceId: workspaces.id,
          name: workspaces.name,
          role: memberships.role,
          billingStatus: workspaces.billingStatus,
        })
        .from(memberships)
        .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
        .where(eq(memberships.personId, personId))
        .orderBy(asc(workspaces.name), asc(workspaces.id));
    },
  };
}
