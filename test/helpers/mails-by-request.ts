import pg from 'pg';
import type { SmtpCatcher } from './smtp-catcher.js';

/** How many e-mails the catcher holds for each request id (the worker's X-Config-Share-Request header). */
export function mailsByRequest(smtp: SmtpCatcher): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of smtp.messages) {
    const id = message.headers.get('x-config-share-request');
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Waits until every id in `ids` has at least one e-mail; resolves with the counts (the caller checks for twos). */
export async function waitForMails(smtp: SmtpCatcher, ids: string[], timeoutMs: number): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = mailsByRequest(smtp);
    const missing = ids.filter((id) => !counts.has(id));
    if (missing.length === 0) return counts;
    if (Date.now() > deadline)
      throw new Error(`${missing.length} of ${ids.length} acknowledged requests were never e-mailed`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until every background step of every request is done: each e-mail step is recorded done only after its
 * e-mail was accepted, so a count taken then includes any second send.
 */
export async function waitForStepsDone(databaseUrl: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ open: number }>(
        `select count(*) filter (where state <> 'done')::int as open from submission_steps`,
      );
      if (rows[0]!.open === 0) return;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.open} background steps still open`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await client.end();
  }
}
