import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client.js';
import { memberships, people, workspaces, type Person, type Role } from '../platform/db/schema/index.js';

/**
 * People and workspaces: who someone is and where they work. A person seen for the first time
 * gets a personal workspace where they are the owner.
 */
export async function ensurePerson(db: Db, subject: string, email: string | null, modelLimit: number): Promise<Person> {
  const existing = await db.query.people.findFirst({ where: eq(people.subject, subject) });
  if (existing) return existing;
  return db.transaction(async (tx) => {
    const [inserted] = await tx.insert(people).values({ subject, email }).onConflictDoNothing({ target: people.subject }).returning();
    // Another request created the same person a moment ago.
    if (!inserted) return (await tx.query.people.findFirst({ where: eq(people.subject, subject) }))!;
    const [workspace] = await tx
      .insert(workspaces)
      .values({ name: email ? `${email}'s workspace` : 'Personal workspace', modelLimit })
      .returning();
    await tx.insert(memberships).values({ workspaceId: workspace.id, personId: inserted.id, role: 'owner' });
    const [person] = await tx.update(people).set({ defaultWorkspaceId: workspace.id }).where(eq(people.id, inserted.id)).returning();
    return person;
  });
}

export async function findRole(db: Executor, workspaceId: string, personId: string): Promise<Role | null> {
  const row = await db.query.memberships.findFirst({
    where: and(eq(memberships.workspaceId, workspaceId), eq(memberships.personId, personId)),
    columns: { role: true },
  });
  return row?.role ?? null;
}

/** Adds (or re-roles) a member. */
export async function setMembership(db: Executor, workspaceId: string, personId: string, role: Role): Promise<void> {
  await db
    .insert(memberships)
    .values({ workspaceId, personId, role })
    .onConflictDoUpdate({ target: [memberships.workspaceId, memberships.personId], set: { role, updatedAt: new Date() } });
}

/** E-mail addresses of a workspace's owners: who hears about a request when the project names nobody. */
export async function workspaceOwnerEmails(db: Executor, workspaceId: string): Promise<string[]> {
  const rows = await db
    .select({ email: people.email })
    .from(memberships)
    .innerJoin(people, eq(people.id, memberships.personId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, 'owner')));
  return rows.map((row) => row.email).filter((email): email is string => Boolean(email));
}
