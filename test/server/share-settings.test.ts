import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { verifyPassword } from '#core/platform/password-hashing.js';

let server: TestServer;
let owner: TestPerson;
let viewer: TestPerson;
let stranger: TestPerson;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('owner@share-settings.test');
  viewer = await server.member(owner.workspaceId, 'viewer@share-settings.test', 'viewer');
  stranger = await server.person('stranger@share-settings.test');
});
afterAll(() => server.close());

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });

async function newProject(): Promise<string> {
  const res = await fetch(`${server.url}/projects`, {
    method: 'POST',
    headers: json(owner.headers),
    body: JSON.stringify({ name: 'Lamp', type: 'configurator', data: { models: [], sceneData: {} } }),
  });
  return (await res.json()).project.id;
}

function call(method: string, path: string, who: TestPerson = owner, body?: unknown) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? who.headers : json(who.headers),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function shareRow(projectId: string) {
  const { rows } = await server.deps.db.$client.query('select * from share_settings where project_id = $1', [
    projectId,
  ]);
  return rows[0];
}

async function events(projectId: string) {
  const { rows } = await server.deps.db.$client.query(
    "select type, data from project_events where project_id = $1 and type = 'project.published'",
    [projectId],
  );
  return rows;
}

describe('share settings', () => {
  it('creates the settings with the defaults on first read', async () => {
    const id = await newProject();
    expect(await shareRow(id)).toBeUndefined();
    const res = await call('GET', `/projects/${id}/share`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      success: true,
      settings: {
        isEnabled: false,
        shareToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        domainRestrictions: [],
        requirePassword: false,
      },
    });
    const row = await shareRow(id);
    expect(row).toMatchObject({ share_token: body.settings.shareToken, is_enabled: false, password_hash: null });
    // The same settings on the next read.
    expect((await (await call('GET', `/projects/${id}/share`)).json()).settings.shareToken).toBe(
      body.settings.shareToken,
    );
  });

  it('enables once, emitting project.published only when the share goes live', async () => {
    const id = await newProject();
    const first = await call('POST', `/projects/${id}/share/enable`);
    expect(first.status).toBe(200);
    const { settings } = await first.json();
    expect(settings).toMatchObject({ isEnabled: true, domainRestrictions: [], requirePassword: false });
    expect((await (await call('POST', `/projects/${id}/share/enable`)).json()).settings).toEqual(settings);
    const published = await events(id);
    expect(published).toHaveLength(1);
    expect(published[0].data).toMatchObject({ projectId: id, name: 'Lamp' });
    expect((await shareRow(id)).revision).toBe(2);
  });

  it('replaces the whole object on PUT, keeping the token and reverting omitted fields', async () => {
    const id = await newProject();
    const token = (await (await call('GET', `/projects/${id}/share`)).json()).settings.shareToken;

    const put = await call('PUT', `/projects/${id}/share`, owner, {
      isEnabled: true,
      requirePassword: true,
      password: 'open sesame',
      domainRestrictions: ['Shop.Example.COM', '*.Brand.test:8443', 'shop.example.com'],
    });
    expect(put.status).toBe(200);
    const body = await put.json();
    expect(body).toEqual({
      success: true,
      settings: {
        isEnabled: true,
        shareToken: token,
        domainRestrictions: ['shop.example.com', '*.brand.test:8443'],
        requirePassword: true,
      },
    });
    expect(JSON.stringify(body)).not.toContain('open sesame');
    const row = await shareRow(id);
    expect(row.password_hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    expect(await verifyPassword('open sesame', row.password_hash)).toBe(true);
    expect(await events(id)).toHaveLength(1);

    // Omitted fields go back to the defaults: disabled, no password, any host.
    const bare = await call('PUT', `/projects/${id}/share`, owner, {});
    expect((await bare.json()).settings).toEqual({
      isEnabled: false,
      shareToken: token,
      domainRestrictions: [],
      requirePassword: false,
    });
    const after = await shareRow(id);
    expect(after.password_hash).toBeNull();
    expect(after.revision).toBe(row.revision + 1);

    // Enabling again through PUT emits again; a PUT that keeps it enabled does not.
    await call('PUT', `/projects/${id}/share`, owner, { isEnabled: true });
    await call('PUT', `/projects/${id}/share`, owner, { isEnabled: true, domainRestrictions: ['a.test'] });
    expect(await events(id)).toHaveLength(2);
  });

  it('rotates the token on regenerate', async () => {
    const id = await newProject();
    const before = (await (await call('POST', `/projects/${id}/share/enable`)).json()).settings;
    const res = await call('POST', `/projects/${id}/share/regenerate`);
    expect(res.status).toBe(200);
    const after = (await res.json()).settings;
    expect(after.shareToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(after.shareToken).not.toBe(before.shareToken);
    expect(after).toMatchObject({ isEnabled: true, requirePassword: false });
    expect((await shareRow(id)).share_token).toBe(after.shareToken);
  });

  it('validates the PUT body, naming the field', async () => {
    const id = await newProject();
    const cases: Array<[unknown, string]> = [
      [{ isEnabled: 'true' }, 'body.isEnabled'],
      [{ requirePassword: 1 }, 'body.requirePassword'],
      [{ requirePassword: true }, 'body.password'],
      [{ requirePassword: true, password: '' }, 'body.password'],
      [{ requirePassword: true, password: 'x'.repeat(201) }, 'body.password'],
      [{ domainRestrictions: 'shop.example.com' }, 'body.domainRestrictions'],
      [{ domainRestrictions: ['ok.test', 'https://shop.example.com'] }, 'body.domainRestrictions.1'],
      [{ domainRestrictions: ['*.com'] }, 'body.domainRestrictions.0'],
      [{ domainRestrictions: Array.from({ length: 51 }, (_, i) => `h${i}.test`) }, 'body.domainRestrictions'],
    ];
    for (const [body, field] of cases) {
      const res = await call('PUT', `/projects/${id}/share`, owner, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await res.json();
      expect(error).toMatchObject({ success: false, error: 'invalid_request' });
      expect(
        error.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    // 50 hosts are fine; nothing above changed the settings.
    expect((await shareRow(id))?.revision ?? 1).toBe(1);
    const fifty = await call('PUT', `/projects/${id}/share`, owner, {
      domainRestrictions: Array.from({ length: 50 }, (_, i) => `h${i}.test`),
    });
    expect(fifty.status).toBe(200);
  });

  it('lets viewers read but not change, and hides other workspaces’ projects', async () => {
    const id = await newProject();
    expect((await call('GET', `/projects/${id}/share`, viewer)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', `/projects/${id}/share/enable`, undefined],
      ['PUT', `/projects/${id}/share`, { isEnabled: true }],
      ['POST', `/projects/${id}/share/regenerate`, undefined],
    ] as const) {
      const asViewer = await call(method, path, viewer, body);
      expect(asViewer.status).toBe(403);
      expect((await asViewer.json()).error).toBe('forbidden');
      const asStranger = await call(method, path, stranger, body);
      expect(asStranger.status).toBe(404);
      expect((await asStranger.json()).error).toBe('not_found');
    }
    expect((await call('GET', `/projects/${id}/share`, stranger)).status).toBe(404);
    expect((await fetch(`${server.url}/projects/${id}/share`)).status).toBe(401);
    expect((await shareRow(id)).is_enabled).toBe(false);
  });

  it('accepts a workspace API key', async () => {
    const id = await newProject();
    const created = await (await call('POST', '/workspace/api-keys', owner, { name: 'ci' })).json();
    const res = await fetch(`${server.url}/projects/${id}/share/enable`, {
      method: 'POST',
      headers: { 'x-api-key': created.key },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).settings.isEnabled).toBe(true);
  });
});
