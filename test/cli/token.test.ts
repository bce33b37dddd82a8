import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { run, runTs } from './run-command.js';

/** `npm run token`: run as a child process against the test server's own database. */
let server: TestServer;
const token = (args: string[]) => runTs('server/cli/token.ts', args, server.env.env);
const query = (text: string, values: unknown[]) => server.deps.db.$client.query(text, values);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('npm run token', () => {
  it('--json prints one JSON line with token, userId and workspaceId, for a person it creates once', async () => {
    const first = await token(['--email', 'owner@example.com', '--json']);
    expect(first.code).toBe(0);
    const lines = first.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]);
    expect(Object.keys(out).sort()).toEqual(['token', 'userId', 'workspaceId']);

    const { rows } = await query(
      'select p.email, m.role from people p join memberships m on m.person_id = p.id where p.id = $1 and ' +
        'm.workspace_id = $2',
      [out.userId, out.workspaceId],
    );
    expect(rows).toEqual([{ email: 'owner@example.com', role: 'owner' }]);

    const again = JSON.parse((await token(['--email', 'Owner@Example.com', '--json'])).stdout);
    expect(again).toMatchObject({ userId: out.userId, workspaceId: out.workspaceId });
    expect(
      (await query('select count(*)::int as n from people where email = $1', ['owner@example.com'])).rows[0].n,
    ).toBe(1);
  });

  it('issues a token the API accepts, valid for 24 hours', async () => {
    const out = JSON.parse((await token(['--email', 'reader@example.com', '--json'])).stdout);
    const res = await fetch(`${server.url}/projects`, { headers: { authorization: `Bearer ${out.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, projects: [] });
    const claims = JSON.parse(Buffer.from(out.token.split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(24 * 3600);
  });

  it('--workspace and --role add the person to that workspace with that role', async () => {
    const owner = JSON.parse((await token(['--email', 'team-owner@example.com', '--json'])).stdout);
    const res = await token([
      '--email',
      'viewer@example.com',
      '--workspace',
      owner.workspaceId,
      '--role',
      'viewer',
      '--json',
    ]);
    expect(res.code).toBe(0);
    const viewer = JSON.parse(res.stdout);
    // workspaceId stays the personal workspace.
    expect(viewer.workspaceId).not.toBe(owner.workspaceId);
    const { rows } = await query('select role from memberships where workspace_id = $1 and person_id = $2', [
      owner.workspaceId,
      viewer.userId,
    ]);
    expect(rows).toEqual([{ role: 'viewer' }]);

    const headers = {
      authorization: `Bearer ${viewer.token}`,
      'x-workspace-id': owner.workspaceId,
      'content-type': 'application/json',
    };
    expect((await fetch(`${server.url}/projects`, { headers })).status).toBe(200);
    const write = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Nope' }),
    });
    expect(write.status).toBe(403);

    // Without --role the person joins as editor.
    const editor = JSON.parse(
      (await token(['--email', 'editor@example.com', '--workspace', owner.workspaceId, '--json'])).stdout,
    );
    const role = await query('select role from memberships where workspace_id = $1 and person_id = $2', [
      owner.workspaceId,
      editor.userId,
    ]);
    expect(role.rows).toEqual([{ role: 'editor' }]);
  });

  it('refuses an unknown workspace with exit code 1 and creates nobody', async () => {
    const res = await token([
      '--email',
      'ghost@example.com',
      '--workspace',
      '00000000-0000-4000-8000-000000000000',
      '--json',
    ]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/workspace 00000000-0000-4000-8000-000000000000 does not exist/);
    expect(
      (await query('select count(*)::int as n from people where email = $1', ['ghost@example.com'])).rows[0].n,
    ).toBe(0);
  });

  it('rejects bad arguments with exit code 1 and the usage', async () => {
    for (const args of [
      [],
      ['--email', 'not-an-email'],
      ['--email', 'a@example.com', '--role', 'viewer'],
      ['--email', 'a@example.com', '--workspace', 'abc'],
      ['--email', 'a@example.com', '--frobnicate'],
    ]) {
      const res = await token(args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/usage: npm run -s token/);
    }
  });

  it('keeps stdout clean under `npm run --silent`', async () => {
    const res = await run(
      'npm',
      ['run', '--silent', 'token', '--', '--email', 'npm@example.com', '--json'],
      server.env.env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.endsWith('\n')).toBe(true);
    expect(Object.keys(JSON.parse(res.stdout)).sort()).toEqual(['token', 'userId', 'workspaceId']);
  });
});
