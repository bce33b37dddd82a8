import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { loadServerConfig } from '../../server/config.js';

/** The owner console's CORS, `GET /me` for its workspace switcher, and the operator's queue view (issue 15). */
const CONSOLE = 'http://127.0.0.1:8089';
const SECRET = 'operator-secret-for-tests-0123456789';

let plain: TestServer;
let consoled: TestServer;
beforeAll(async () => {
  [plain, consoled] = await Promise.all([
    startTestServer(),
    startTestServer({
      CONSOLE_ORIGINS: `${CONSOLE},https://console.example.com`,
      OPERATOR_SECRET: SECRET,
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), consoled?.close()]);
});

const preflight = (url: string, origin: string, method = 'PUT') =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type, x-workspace-id',
    },
  });

describe('owner API CORS for console origins', () => {
  it('answers a preflight from a configured origin with the owner headers', async () => {
    const res = await preflight(`${consoled.url}/projects/00000000-0000-4000-8000-000000000000/share`, CONSOLE);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    const allowed = res.headers
      .get('access-control-allow-headers')!
      .split(',')
      .map((h) => h.trim());
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'x-workspace-id', 'x-api-key', 'if-match']),
    );
    expect(res.headers.get('access-control-allow-methods')).toContain('DELETE');
  });

  it('echoes the origin on answers, errors included', async () => {
    const owner = await consoled.person('cors-owner@example.com');
    const ok = await fetch(`${consoled.url}/projects`, { headers: { ...owner.headers, origin: CONSOLE } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expect(ok.headers.get('vary')).toContain('Origin');
    // The console reads a project's ETag to send it back as If-Match.
    expect(ok.headers.get('access-control-expose-headers')).toContain('ETag');
    const denied = await fetch(`${consoled.url}/projects`, { headers: { origin: CONSOLE } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  });

  it('gives other origins, and every origin by default, no CORS headers', async () => {
    for (const [server, origin] of [
      [consoled, 'https://evil.example.net'],
      [plain, CONSOLE],
    ] as const) {
      const res = await preflight(`${server.url}/projects`, origin);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-headers')).toBeNull();
      const owner = await server.person(`cors-${origin.length}@example.com`);
      const get = await fetch(`${server.url}/projects`, { headers: { ...owner.headers, origin } });
      expect(get.status).toBe(200);
      expect(get.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('leaves the public share routes their own CORS', async () => {
    const res = await preflight(
      `${consoled.url}/share/00000000-0000-4000-8000-000000000000/tok`,
      'https://shop.example.net',
      'GET',
    );
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.net');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-share-password');
  });

  it('refuses origins that are not origins', () => {
    expect(() => loadServerConfig({ CONSOLE_ORIGINS: 'http://127.0.0.1:8080/demo/' })).toThrow(/CONSOLE_ORIGINS/);
  });
});

describe('GET /me', () => {
  it('lists the workspaces of the person, with roles', async () => {
    const owner = await consoled.person('me-owner@example.com');
    const member = await consoled.member(owner.workspaceId, 'me-member@example.com', 'viewer');
    const res = await fetch(`${consoled.url}/me`, { headers: { authorization: member.headers.authorization } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.person.email).toBe('me-member@example.com');
    expect(body.workspaces).toHaveLength(2);
    expect(body.workspaces).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: owner.workspaceId, role: 'viewer', isDefault: false }),
        expect.objectContaining({ role: 'owner', isDefault: true }),
      ]),
    );
    const selected = await (await fetch(`${consoled.url}/me`, { headers: member.headers })).json();
    expect(selected.workspace).toEqual({ id: owner.workspaceId, role: 'viewer' });
  });
});

describe('queue view', () => {
  it('is not mounted without OPERATOR_SECRET (404)', async () => {
    expect((await fetch(`${plain.url}/admin/queues`)).status).toBe(404);
  });

  it('refuses a missing or wrong secret (401) and opens with the right one', async () => {
    const missing = await fetch(`${consoled.url}/admin/queues`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Basic /);
    const basic = (password: string) => ({
      authorization: `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`,
    });
    expect((await fetch(`${consoled.url}/admin/queues`, { headers: basic('wrong-secret-0123456789') })).status).toBe(
      401,
    );
    expect((await fetch(`${consoled.url}/admin/queues/api/queues`, { headers: basic('nope') })).status).toBe(401);
    const page = await fetch(`${consoled.url}/admin/queues`, { headers: basic(SECRET) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const api = await fetch(`${consoled.url}/admin/queues/api/queues`, { headers: basic(SECRET) });
    expect(api.status).toBe(200);
    const names = (await api.json()).queues.map((q: { name: string }) => q.name);
    expect(names).toEqual(
      expect.arrayContaining(['submission-steps', 'webhook-deliveries', 'imports', 'maintenance', 'health']),
    );
    // Its actions go through the server's JSON body handling too (the UI sends JSON).
    const retry = await fetch(`${consoled.url}/admin/queues/api/queues/maintenance/retry/failed`, {
      method: 'PUT',
      headers: { ...basic(SECRET), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(retry.status).toBeLessThan(300);
    // Not part of the API's description.
    const spec = await (await fetch(`${consoled.url}/openapi.json`)).json();
    expect(Object.keys(spec.paths).some((path) => path.startsWith('/admin'))).toBe(false);
    expect(spec.paths['/me'].get).toBeTruthy();
  });

  it('refuses an operator secret too short to guard it', () => {
    expect(() => loadServerConfig({ OPERATOR_SECRET: 'x'.repeat(15) })).toThrow(
      /^OPERATOR_SECRET must be at least 16 characters/,
    );
  });
});
