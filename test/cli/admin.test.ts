import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../helpers/test-env.js';
import { createDb, type Db } from '#core/platform/db/client.js';
import { ensureTestPerson } from '../helpers/people.js';
import { runTs } from './run-command.js';

/** `npm run admin -- workspace ...`: run as a child process against a database of its own. */
let env: TestEnv;
let db: Db;
let workspaceId: string;
const admin = (args: string[]) => runTs('server/cli/admin.ts', args, env.env);
const row = async () =>
  (await db.$client.query('select billing_status, model_limit from workspaces where id = $1', [workspaceId]))
    .rows[0] as { billing_status: string; model_limit: number };

beforeAll(async () => {
  env = await createTestEnv();
  db = createDb(env.databaseUrl, 1);
  workspaceId = (await ensureTestPerson(db, 'test|admin@example.com', 'admin@example.com', 100)).defaultWorkspaceId!;
});
afterAll(async () => {
  await db.$client.end();
  await env.cleanup();
});

describe('npm run admin -- workspace', () => {
  it('locks billing and sets the model limit, printing the workspace', async () => {
    const res = await admin(['workspace', workspaceId, '--billing', 'locked', '--model-limit', '7']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: workspaceId, billingStatus: 'locked', modelLimit: 7 });
    expect(await row()).toEqual({ billing_status: 'locked', model_limit: 7 });
  });

  it('changes one setting and leaves the other', async () => {
    expect((await admin(['workspace', workspaceId, '--billing', 'active'])).code).toBe(0);
    expect(await row()).toEqual({ billing_status: 'active', model_limit: 7 });
    expect((await admin(['workspace', workspaceId, '--model-limit', '0'])).code).toBe(0);
    expect(await row()).toEqual({ billing_status: 'active', model_limit: 0 });
  });

  it('rejects bad arguments with exit code 1 and changes nothing', async () => {
    const before = await row();
    const cases = [
      ['workspace', workspaceId],
      ['workspace', workspaceId, '--billing', 'frozen'],
      ['workspace', workspaceId, '--model-limit=abc'],
      ['workspace', workspaceId, '--model-limit', '99999999999'],
      ['workspace', 'not-a-uuid', '--billing', 'locked'],
      ['workspace', '--billing', 'locked'],
      ['project', workspaceId, '--billing', 'locked'],
      ['workspace', workspaceId, '--billing', 'locked', '--plan', 'pro'],
    ];
    for (const args of cases) {
      const res = await admin(args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^error: /);
    }
    expect(await row()).toEqual(before);
  });

  it('reports an unknown workspace with exit code 1', async () => {
    const res = await admin(['workspace', '00000000-0000-4000-8000-000000000000', '--billing', 'locked']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/does not exist/);
  });
});
