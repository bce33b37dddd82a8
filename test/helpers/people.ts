import type { Db } from '#core/platform/db/client.js';
import type { Person } from '#core/platform/db/schema/index.js';
import { createAccountRepository } from '#core/repositories/accounts.js';

/** A person owning a personal workspace, straight through the repository: for tests and benchmarks without a server. */
export async function ensureTestPerson(db: Db, subject: string, email: string, modelLimit = 100): Promise<Person> {
  const accounts = createAccountRepository(db);
  const existing = await accounts.findPersonBySubject(subject);
  if (existing) return existing;
  return (await db.transaction((tx) => accounts.insertPersonWithWorkspace(tx, { subject, email, modelLimit })))!;
}
