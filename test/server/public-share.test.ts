import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { TEST_SECRETS, createTestEnv, freePort } from '../helpers/test-env.js';
import { assets } from '#core/platform/db/schema/index.js';
import { storageKeys } from '#core/platform/storage/index.js';
import { MODEL_URL_LIFETIME_SECONDS } from '#core/platform/storage/signed-urls.js';
import {
  MAX_CONCURRENT_SCRYPT,
  hashPassword,
  passwordHashingBacklog,
  verifyPassword,
} from '#core/platform/password-hashing.js';
import { loadServerConfig } from '../../server/config.js';
import { closeDeps, createDeps } from '../../server/deps.js';
import { buildApp } from '../../server/app.js';
import { redactUrl } from '#core/http/request-log.js';
import { clientKey } from '#core/domain/client-key.js';
import {
  MAX_PASSWORD_BACKLOG,
  MAX_PASSWORD_CHECKS_PER_PROJECT,
  PASSWORD_ATTEMPTS,
} from '#core/services/public-share/password-check.js';

// The server runs in this process: count the scrypt verifications it performs.
vi.mock('#core/platform/password-hashing.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#core/platform/password-hashing.js')>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});
const verifications = () => vi.mocked(verifyPassword).mock.calls.length;
const realVerify = vi.mocked(verifyPassword).getMockImplementation()!;

const KEY = TEST_SECRETS.PUBLIC_ANON_KEY;
const PUBLIC = { apikey: KEY, authorization: `Bearer ${KEY}` };
const UNAVAILABLE = { success: false, error: 'unavailable', reason: 'owner_billing' };

let server: TestServer;
let owner: TestPerson;

beforeAll(async () => {
  // The default limit (120 per 5 minutes per IP) is exercised on its own server below. The test
  // client is a trusted proxy, so X-Forwarded-For can play clients at other addresses.
  server = await startTestServer({ RATE_LIMIT_SHARE_READ: '100000/5m', TRUST_PROXY: '127.0.0.1' });
  owner = await server.person('owner@public-share.test');
});
afterAll(() => server.close());

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });

interface Shared {
  id: string;
  token: string;
}

async function createProject(
  on: TestServer,
  who: TestPerson,
  data: Record<string, unknown>,
  name = 'Sofa',
): Promise<string> {
  const res = await fetch(`${on.url}/projects`, {
    method: 'POST',
    headers: json(who.headers),
    body: JSON.stringify({ name, type: 'configurator', data }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).project.id;
}

async function putShare(on: TestServer, who: TestPerson, id: string, settings: Record<string, unknown>) {
  const res = await fetch(`${on.url}/projects/${id}/share`, {
    method: 'PUT',
    headers: json(who.headers),
    body: JSON.stringify(settings),
  });
  expect(res.status).toBe(200);
  return (await res.json()).settings;
}

/** A project shared with the given settings (enabled unless told otherwise). */
async function share(
  data: Record<string, unknown> = { models: [], sceneData: {} },
  settings: Record<string, unknown> = {},
  on = server,
  who = owner,
): Promise<Shared> {
  const id = await createProject(on, who, data);
  const { shareToken } = await putShare(on, who, id, { isEnabled: true, ...settings });
  return { id, token: shareToken };
}

function read(target: Shared, headers: Record<string, string> = {}, on = server) {
  return fetch(`${on.url}/share/${target.id}/${target.token}`, { headers: { ...PUBLIC, ...headers } });
}

/** A client at another address (the main server trusts the test client as a proxy) sending a password. */
const from = (ip: string, password: string, extra: Record<string, string> = {}) => ({
  'x-forwarded-for': ip,
  'x-share-password': password,
  ...extra,
});

/** A password-protected share whose hash is cheap (scrypt N=2^10), so a test can afford a hundred wrong tries. */
async function cheapPasswordShare(password: string): Promise<Shared> {
  const target = await share({ models: [], sceneData: {} }, { requirePassword: true, password });
  const hash = await hashPassword(password, { ln: 10, r: 8, p: 1 });
  await server.deps.db.$client.query('update share_settings set password_hash = $1 where project_id = $2', [
    hash,
    target.id,
  ]);
  return target;
}

/** `count` wrong passwords from as many /64s as needed, each within its own limit. */
async function guessFromManyClients(target: Shared, firstNetwork: number, count: number) {
  for (let n = 0; n < count; n++) {
    const network = firstNetwork + Math.floor(n / PASSWORD_ATTEMPTS);
    const res = await read(target, from(`2001:db8:${network}::${(n % PASSWORD_ATTEMPTS) + 1}`, `guess ${n}`));
    expect(res.status).toBe(401);
  }
}

function modelUrls(target: Shared, modelIds: unknown, headers: Record<string, string> = {}, on = server) {
  return fetch(`${on.url}/share/${target.id}/${target.token}/model-urls`, {
    method: 'POST',
    headers: { ...PUBLIC, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ modelIds }),
  });
}

/** An asset row of the workspace with its file in storage. */
async function addAsset(on: TestServer, workspaceId: string, bytes = randomBytes(64)): Promise<string> {
  const id = randomUUID();
  const storageKey = storageKeys.asset(workspaceId, id);
  await on.deps.storage.put(storageKey, bytes, { contentType: 'model/gltf-binary' });
  await on.deps.db.insert(assets).values({
    id,
    workspaceId,
    name: `asset ${id}`,
    fileName: 'model.glb',
    storageKey,
    sizeBytes: bytes.length,
    sourceFormat: 'glb',
    modelInfo: {},
  });
  return id;
}

async function setBilling(workspaceId: string, status: 'active' | 'locked') {
  // As npm run admin does it: through the service, which tells every server once committed.
  await server.deps.services.workspaces.change(workspaceId, { billingStatus: status });
}

function expectCors(res: Response, origin = 'https://shop.example.com') {
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect(res.headers.get('access-control-expose-headers')).toBe('ETag, Retry-After');
  expect(res.headers.get('vary')).toBe('Origin, X-Share-Password');
}

describe('public read', () => {
  it('serves the payload: listed fields only, redacted settings, vectors as objects', async () => {
    const target = await share({
      models: [
        {
          id: 'seat',
          fileName: 'seat.glb',
          position: [1, 2, 3],
          rotation: [0, 90, 0],
          partTransforms: { leg: { y: 1 } },
          deletedParts: ['arm'],
          pivotData: { x: 1 },
          ownerNote: 'hidden',
        },
        { id: 'legs', fileName: 'legs.glb', transform: { position: { x: 4, y: 5, z: 6 }, scale: [2, 2, 2] } },
      ],
      sceneData: {
        optionBlocks: [{ id: 'colour', name: 'Colour', choices: [{ id: 'red', label: 'Red' }] }],
        formFields: [{ id: 'email', label: 'E-mail', type: 'email', required: true }],
        projectSettings: {
          brandColor: '#ff0000',
          smtpHost: 'smtp.example.com',
          smtpPassword: 'secret',
          emailAdminAddress: 'owner@example.com',
          webhookSecret: 'whsec',
          webhookUrl: 'https://hooks.example.com',
          shop: { woocommerceKey: 'ck_123', shopifyToken: 'shpat', currency: 'EUR' },
        },
        internalNotes: 'not part of the payload',
      },
      camera: { position: [0, 1.5, 4], target: [0, 0.5, 0] },
      renderQuality: 'low',
      saveConfigEnabled: true,
    });

    const res = await read(target, { origin: 'https://shop.example.com' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe('frame-ancestors *');
    expectCors(res);
    const body = await res.json();
    expect(body).toEqual({
      success: true,
      project: {
        id: target.id,
        name: 'Sofa',
        type: 'configurator',
        data: {
          models: [
            {
              id: 'seat',
              fileName: 'seat.glb',
              transform: {},
              position: { x: 1, y: 2, z: 3 },
              rotation: { x: 0, y: 90, z: 0 },
              scale: { x: 1, y: 1, z: 1 },
              partTransforms: { leg: { y: 1 } },
              deletedParts: ['arm'],
              pivotData: { x: 1 },
            },
            {
              id: 'legs',
              fileName: 'legs.glb',
              transform: { position: { x: 4, y: 5, z: 6 }, scale: [2, 2, 2] },
              position: { x: 4, y: 5, z: 6 },
              rotation: { x: 0, y: 0, z: 0 },
              scale: { x: 2, y: 2, z: 2 },
              partTransforms: {},
              deletedParts: [],
              pivotData: {},
            },
          ],
          sceneData: {
            optionBlocks: [{ id: 'colour', name: 'Colour', choices: [{ id: 'red', label: 'Red' }] }],
            projectSettings: { brandColor: '#ff0000', shop: { currency: 'EUR' } },
            formFields: [{ id: 'email', label: 'E-mail', type: 'email', required: true }],
            animationBlocks: [],
            pricingBlocks: [],
            pricingFormula: [],
          },
          camera: { position: { x: 0, y: 1.5, z: 4 }, target: { x: 0, y: 0.5, z: 0 } },
          renderQuality: 'low',
          saveConfigEnabled: true,
        },
      },
    });
    // The owner still reads the credentials through the authenticated project read.
    const ownerRead = await (await fetch(`${server.url}/projects/${target.id}`, { headers: owner.headers })).json();
    expect(ownerRead.project.data.sceneData.projectSettings.smtpPassword).toBe('secret');
  });

  it('omits the camera when the project has none', async () => {
    const target = await share({ models: [], sceneData: {} });
    const { project } = await (await read(target)).json();
    expect('camera' in project.data).toBe(false);
    expect(project.data).toMatchObject({ renderQuality: 'optimised', saveConfigEnabled: false });
  });

  it('needs the public key in both headers, before anything else', async () => {
    const target = await share();
    for (const headers of [
      { apikey: '', authorization: '' },
      { apikey: KEY, authorization: '' },
      { apikey: '', authorization: `Bearer ${KEY}` },
      { apikey: 'wrong-key-0123456789', authorization: `Bearer ${KEY}` },
      { apikey: KEY, authorization: 'Bearer wrong-key-0123456789' },
    ]) {
      const res = await fetch(`${server.url}/share/${target.id}/${target.token}`, {
        headers: { ...headers, origin: 'https://shop.example.com' },
      });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('invalid_api_key');
      expectCors(res);
    }
    // Even a malformed path answers 401 first.
    const res = await fetch(`${server.url}/share/not-a-uuid/x`, { headers: { apikey: 'nope' } });
    expect(res.status).toBe(401);
  });

  it('answers one indistinguishable 404 for unknown, malformed, rotated and disabled shares', async () => {
    const target = await share();
    const bodies: unknown[] = [];
    const check = async (res: Response) => {
      expect(res.status).toBe(404);
      expectCors(res);
      bodies.push(await res.json());
    };
    const origin = { origin: 'https://shop.example.com' };
    await check(await read({ id: randomUUID(), token: target.token }, origin));
    await check(await read({ id: target.id, token: randomBytes(32).toString('base64url') }, origin));
    await check(await read({ id: 'not-a-uuid', token: target.token }, origin));
    await check(await read({ id: target.id, token: 'bad!token' }, origin));
    await check(await read({ id: target.id, token: 'short' }, origin));
    expect(bodies.every((b) => JSON.stringify(b) === JSON.stringify(bodies[0]))).toBe(true);
    expect(bodies[0]).toMatchObject({ success: false, error: 'not_found' });

    // Disabled through PUT: the link goes offline at once, and comes back on enable.
    await putShare(server, owner, target.id, { isEnabled: false });
    const disabled = await read(target, origin);
    await check(disabled);
    expect(bodies.at(-1)).toEqual(bodies[0]);
    await fetch(`${server.url}/projects/${target.id}/share/enable`, { method: 'POST', headers: owner.headers });
    expect((await read(target)).status).toBe(200);
  });

  it('stops the old token at once after regenerate', async () => {
    const target = await share();
    expect((await read(target)).status).toBe(200);
    const res = await fetch(`${server.url}/projects/${target.id}/share/regenerate`, {
      method: 'POST',
      headers: owner.headers,
    });
    const { shareToken } = (await res.json()).settings;
    expect((await read(target)).status).toBe(404);
    expect((await read({ id: target.id, token: shareToken })).status).toBe(200);
  });

  it('answers 304 while nothing changed, and a new ETag after a project or share change', async () => {
    const data = { models: [{ id: 'a', fileName: 'a.glb' }], sceneData: {} };
    const target = await share(data);
    const first = await read(target);
    const etag = first.headers.get('etag')!;
    expect((await read(target)).headers.get('etag')).toBe(etag);

    const origin = 'https://shop.example.com';
    const notModified = await read(target, { 'if-none-match': etag, origin });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(notModified.headers.get('cache-control')).toBe('no-cache');
    expectCors(notModified, origin);
    expect((await read(target, { 'if-none-match': `"stale", W/${etag}` })).status).toBe(304);

    // The owner renames the project: new revision, new ETag, the old one no longer matches.
    const put = await fetch(`${server.url}/projects/${target.id}`, {
      method: 'PUT',
      headers: json(owner.headers),
      body: JSON.stringify({ name: 'Sofa v2', type: 'configurator', data }),
    });
    expect(put.status).toBe(200);
    const changed = await read(target, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    const etag2 = changed.headers.get('etag')!;
    expect(etag2).not.toBe(etag);
    expect((await changed.json()).project.name).toBe('Sofa v2');

    // A share change (here the embed hosts, and so the frame-ancestors header) also changes it.
    await putShare(server, owner, target.id, { isEnabled: true, domainRestrictions: ['shop.example.com'] });
    const reshared = await read(target, { 'if-none-match': etag2 });
    expect(reshared.status).toBe(200);
    expect(reshared.headers.get('etag')).not.toBe(etag2);
    expect(reshared.headers.get('content-security-policy')).toBe('frame-ancestors shop.example.com:*');
  });

  it('enforces the embed hosts from Origin, else Referer, and allows headless requests', async () => {
    const target = await share(undefined, {
      domainRestrictions: ['shop.example.com', '*.brand.test', 'localhost:8080'],
    });
    const allowed: Array<Record<string, string>> = [
      { origin: 'https://shop.example.com' },
      { origin: 'http://shop.example.com:3000' },
      { origin: 'https://eu.brand.test' },
      { origin: 'https://a.b.brand.test' },
      { origin: 'http://localhost:8080' },
      { referer: 'https://shop.example.com/products/sofa?x=1' },
      {},
    ];
    const refused: Array<Record<string, string>> = [
      { origin: 'https://evil.test' },
      { origin: 'https://brand.test' },
      { origin: 'https://shop.example.com.evil.test' },
      { origin: 'http://localhost:3000' },
      { origin: 'null' },
      { referer: 'https://evil.test/page' },
      // Origin wins over Referer.
      { origin: 'https://evil.test', referer: 'https://shop.example.com/' },
    ];
    for (const headers of allowed) {
      const res = await read(target, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(
        'frame-ancestors shop.example.com:* *.brand.test:* localhost:8080',
      );
    }
    for (const headers of refused) {
      const res = await read(target, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect((await res.json()).error).toBe('domain_not_allowed');
      if (headers.origin) expect(res.headers.get('access-control-allow-origin')).toBe(headers.origin);
    }
  });

  it("frames the password prompt under the share's embed hosts too, and a disabled share not at all", async () => {
    const target = await share(
      { models: [], sceneData: {} },
      { requirePassword: true, password: 'pw-for-frames', domainRestrictions: ['shop.example.com', '*.brand.test'] },
    );
    for (const headers of [{}, { 'x-share-password': 'wrong' }] as Array<Record<string, string>>) {
      const res = await read(target, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-security-policy')).toBe('frame-ancestors shop.example.com:* *.brand.test:*');
    }
    const ok = await read(target, { 'x-share-password': 'pw-for-frames' });
    expect(ok.headers.get('content-security-policy')).toBe('frame-ancestors shop.example.com:* *.brand.test:*');
    // Disabled (or rotated): the 404 says nothing about the share, its embed hosts included.
    await putShare(server, owner, target.id, { isEnabled: false, domainRestrictions: ['shop.example.com'] });
    const gone = await read(target, { 'x-share-password': 'pw-for-frames' });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-security-policy')).toBeNull();
  });

  it('asks for the password, refuses a wrong one and serves privately with the right one', async () => {
    const target = await share({ models: [], sceneData: {} }, { requirePassword: true, password: 'correct horse' });
    const missing = await read(target, { origin: 'https://shop.example.com' });
    expect(missing.status).toBe(401);
    expect((await missing.json()).error).toBe('password_required');
    expectCors(missing);

    const wrong = await read(target, { 'x-share-password': 'battery staple' });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toBe('invalid_password');

    const before = verifications();
    for (let i = 0; i < 3; i++) {
      const right = await read(target, { 'x-share-password': 'correct horse' });
      expect(right.status).toBe(200);
      expect(right.headers.get('cache-control')).toBe('private, no-cache');
      expect((await right.json()).project.id).toBe(target.id);
    }
    // scrypt ran once; the next reads were answered from the verified-password cache.
    expect(verifications() - before).toBe(1);

    // A password change takes effect at once, even for a client that just used the old one.
    await putShare(server, owner, target.id, { isEnabled: true, requirePassword: true, password: 'new secret' });
    expect((await read(target, { 'x-share-password': 'correct horse' })).status).toBe(401);
    expect((await read(target, { 'x-share-password': 'new secret' })).status).toBe(200);
  });

  it('refuses the 11th wrong password in 15 minutes with 429, even before checking it', async () => {
    const target = await share({ models: [], sceneData: {} }, { requirePassword: true, password: 'right one' });
    for (let i = 0; i < 10; i++) {
      const res = await read(target, { 'x-share-password': `guess ${i}` });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('invalid_password');
    }
    const before = verifications();
    const blocked = await read(target, { 'x-share-password': 'guess 10', origin: 'https://shop.example.com' });
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).error).toBe('rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expectCors(blocked);
    // The right password does not get through the lockout either (no oracle for guessers).
    expect((await read(target, { 'x-share-password': 'right one' })).status).toBe(429);
    expect(verifications()).toBe(before);
    // Other projects are not affected.
    const other = await share({ models: [], sceneData: {} }, { requirePassword: true, password: 'right one' });
    expect((await read(other, { 'x-share-password': 'right one' })).status).toBe(200);
  }, 60_000);

  it('counts wrong passwords per IPv6 /64 and per IPv4 address, IPv4-mapped included', async () => {
    const target = await cheapPasswordShare('right one');
    for (let i = 1; i <= PASSWORD_ATTEMPTS; i++)
      expect((await read(target, from(`2001:db8:1:2::${i}`, `guess ${i}`))).status).toBe(401);
    // Any other address of the same /64 is the same client.
    const blocked = await read(target, from('2001:db8:1:2:ffff:ffff:ffff:ffff', 'right one'));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('ratelimit-limit')).toBe(String(PASSWORD_ATTEMPTS));
    expect(blocked.headers.get('ratelimit-remaining')).toBe('0');
    // The next /64 is another client.
    expect((await read(target, from('2001:db8:1:3::1', 'right one'))).status).toBe(200);

    // IPv4 by the address, whether it arrives as IPv4 or as IPv4-mapped IPv6.
    for (let i = 0; i < PASSWORD_ATTEMPTS; i++) {
      const ip = i % 2 ? '::ffff:203.0.113.7' : '203.0.113.7';
      expect((await read(target, from(ip, `v4 guess ${i}`))).status).toBe(401);
    }
    expect((await read(target, from('203.0.113.7', 'right one'))).status).toBe(429);
    expect((await read(target, from('::ffff:203.0.113.7', 'right one'))).status).toBe(429);
    expect((await read(target, from('203.0.113.8', 'right one'))).status).toBe(200);
  });

  it('never locks out a visitor for guesses made from other addresses', async () => {
    const target = await cheapPasswordShare('right one');
    // Twelve addresses, ten wrong guesses each: every one of them is locked out...
    await guessFromManyClients(target, 100, 12 * PASSWORD_ATTEMPTS);
    expect((await read(target, from('2001:db8:100::1', 'right one'))).status).toBe(429);
    // ...while a visitor at another address, who never guessed, gets in with the right password.
    expect((await read(target, from('2001:db8:900::1', 'right one'))).status).toBe(200);
    expect((await read(target, from('198.51.100.9', 'wrong one'))).status).toBe(401);
  }, 60_000);

  it('hashes once for identical password checks that arrive together, and answers them all', async () => {
    const target = await cheapPasswordShare('right one');
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The first check waits on the gate, as a slow scrypt run would.
    vi.mocked(verifyPassword).mockImplementation(async (password, stored) => {
      await gate;
      return realVerify(password, stored);
    });
    try {
      const before = verifications();
      const visitors = [1, 2, 3, 4].map((n) => read(target, from(`192.0.2.${n}`, 'right one')));
      await vi.waitFor(() => expect(verifications() - before).toBe(1), { timeout: 10_000 });
      // All four counted (one attempt counter each in Redis) and so joined the waiting check, which
      // follows the count at once; only then does the slow check finish.
      await vi.waitFor(
        async () =>
          expect(
            await server.deps.redis.keys(`${server.config.queuePrefix}:share-pw*${target.id}:client:*`),
          ).toHaveLength(4),
        { timeout: 10_000 },
      );
      await new Promise((r) => setTimeout(r, 50));
      open();
      expect((await Promise.all(visitors)).map((res) => res.status)).toEqual([200, 200, 200, 200]);
      expect(verifications() - before).toBe(1);
    } finally {
      open();
      vi.mocked(verifyPassword).mockImplementation(realVerify);
    }
  });

  it(`runs at most ${MAX_PASSWORD_CHECKS_PER_PROJECT} checks per share: guessers cannot lock out others`, async () => {
    const attacked = await cheapPasswordShare('right one');
    const other = await cheapPasswordShare('other one');
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Checks of the attacked share hang, as slow scrypt runs would.
    vi.mocked(verifyPassword).mockImplementation(async (password, stored) => {
      if (password.startsWith('guess')) await gate;
      return realVerify(password, stored);
    });
    try {
      const before = verifications();
      const guesses = Array.from({ length: MAX_PASSWORD_CHECKS_PER_PROJECT }, (_, i) =>
        read(attacked, from(`2001:db8:77:${i}::1`, `guess ${i}`)),
      );
      await vi.waitFor(() => expect(verifications() - before).toBe(MAX_PASSWORD_CHECKS_PER_PROJECT), {
        timeout: 10_000,
      });
      // The next guess at that share is refused without hashing...
      const refused = await read(attacked, from('2001:db8:77:99::1', 'guess more'));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      // ...while a visitor of another share is served.
      expect((await read(other, from('198.51.100.77', 'other one'))).status).toBe(200);
      open();
      expect((await Promise.all(guesses)).map((res) => res.status)).toEqual(guesses.map(() => 401));
      expect((await read(attacked, from('198.51.100.78', 'right one'))).status).toBe(200);
    } finally {
      open();
      vi.mocked(verifyPassword).mockImplementation(realVerify);
    }
  });

  it(`queues checks behind ${MAX_CONCURRENT_SCRYPT} scrypt runs; 503 past ${MAX_PASSWORD_BACKLOG}`, async () => {
    const target = await cheapPasswordShare('right one');
    // A burst of slow, full-cost hashes fills this process's scrypt queue (the server runs in this process).
    const burst = Array.from({ length: MAX_PASSWORD_BACKLOG }, (_, i) => hashPassword(`filler ${i}`));
    expect(passwordHashingBacklog()).toBe(MAX_PASSWORD_BACKLOG);
    const busy = await read(target, from('192.0.2.30', 'right one', { origin: 'https://shop.example.com' }));
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await busy.json()).toMatchObject({ success: false, error: 'unavailable', retryAfter: 1 });
    expectCors(busy);
    // A check below the ceiling waits its turn instead of failing.
    await Promise.all(burst.slice(0, 2));
    expect((await read(target, from('192.0.2.31', 'right one'))).status).toBe(200);
    await Promise.all(burst);
    // The refused try was not counted against the client: it still has all its tries.
    for (let i = 0; i < PASSWORD_ATTEMPTS; i++)
      expect((await read(target, from('192.0.2.30', `guess ${i}`))).status).toBe(401);
    expect((await read(target, from('192.0.2.30', 'right one'))).status).toBe(429);
  }, 60_000);

  it('checks billing before embed host and password, and embed host before password', async () => {
    const lockedOwner = await server.person('locked@public-share.test');
    const target = await share(
      { models: [], sceneData: {} },
      { requirePassword: true, password: 'pw', domainRestrictions: ['shop.example.com'] },
      server,
      lockedOwner,
    );
    expect((await read(target, { origin: 'https://evil.test', 'x-share-password': 'wrong' })).status).toBe(403);
    expect((await read(target, { origin: 'https://shop.example.com' })).status).toBe(401);

    await setBilling(lockedOwner.workspaceId, 'locked');
    const attempts: Array<Record<string, string>> = [
      { 'x-share-password': 'wrong', origin: 'https://evil.test' },
      { origin: 'https://evil.test' },
      { 'x-share-password': 'pw' },
      {},
    ];
    for (const headers of attempts) {
      const res = await read(target, headers);
      expect(res.status, JSON.stringify(headers)).toBe(402);
      expect(await res.json()).toEqual(UNAVAILABLE);
      if (headers.origin) expectCors(res, headers.origin);
    }
    // A wrong token or a wrong key still wins over billing.
    expect((await read({ id: target.id, token: randomBytes(32).toString('base64url') })).status).toBe(404);
    expect((await read(target, { apikey: 'nope' })).status).toBe(401);
    const urls = await modelUrls(target, ['a']);
    expect(urls.status).toBe(402);
    expect(await urls.json()).toEqual(UNAVAILABLE);

    await setBilling(lockedOwner.workspaceId, 'active');
    expect((await read(target, { 'x-share-password': 'pw' })).status).toBe(200);
  });

  it('answers CORS preflights for the public routes', async () => {
    const target = await share();
    for (const path of [
      `/share/${target.id}/${target.token}`,
      `/share/${target.id}/${target.token}/model-urls`,
      `/share/${target.id}/${target.token}/submit`,
    ]) {
      const res = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'apikey, authorization, content-type, x-share-password',
        },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
      expect(res.headers.get('access-control-allow-headers')).toBe(
        'apikey, authorization, content-type, if-none-match, x-share-password, idempotency-key',
      );
    }
  });
});

describe('model URLs', () => {
  it('signs the first 20 models with a file, never one past the 20th; model-urls gives the others', async () => {
    const assetIds = [];
    for (let i = 0; i < 25; i++) assetIds.push(await addAsset(server, owner.workspaceId));
    const models = [
      { id: 'no-file', fileName: 'x.glb' },
      ...assetIds.map((assetId, i) => ({ id: `m${i}`, fileName: `m${i}.glb`, assetId })),
    ];
    const target = await share({ models, sceneData: {} });
    const res = await read(target);
    const { project } = await res.json();
    const urls = project.data.models.map((m: { url?: string }) => m.url);
    expect(urls[0]).toBeUndefined();
    expect(urls.slice(1, 20).every((u: unknown) => typeof u === 'string')).toBe(true);
    // The 21st model (m19) has a file but is past the first 20: no url.
    expect(urls.slice(20)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(project.data.models[1]).toMatchObject({ id: 'm0', assetId: assetIds[0] });

    // Each URL is a signed /files URL of the asset's key, valid at least a year, stable across reads.
    const first = new URL(urls[1]);
    expect(`${first.origin}`).toBe(server.url);
    const key = storageKeys.asset(owner.workspaceId, assetIds[0]);
    expect(decodeURIComponent(first.pathname)).toBe(`/files/${key}`);
    const exp = Number(first.searchParams.get('exp'));
    expect(exp).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + MODEL_URL_LIFETIME_SECONDS);
    expect(server.deps.signer.verify(key, exp, first.searchParams.get('sig')!)).toBe(true);
    expect(server.deps.signer.verify(key, exp, 'forged')).toBe(false);
    const again = (await (await read(target)).json()).project.data.models[1].url;
    expect(again).toBe(urls[1]);

    // The file behind the URL downloads.
    const download = await fetch(urls[1]);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(await server.deps.storage.read(key))).toBe(true);

    // The fallback: any model of the project, unknown ids and file-less models left out.
    const fallback = await modelUrls(target, ['m24', 'm19', 'm0', 'no-file', 'unknown'], {
      origin: 'https://shop.example.com',
    });
    expect(fallback.status).toBe(200);
    expectCors(fallback);
    const body = await fallback.json();
    expect(Object.keys(body.urls).sort()).toEqual(['m0', 'm19', 'm24']);
    expect(body.urls.m0).toBe(urls[1]);
    const last = new URL(body.urls.m24);
    expect(
      server.deps.signer.verify(
        storageKeys.asset(owner.workspaceId, assetIds[24]),
        Number(last.searchParams.get('exp')),
        last.searchParams.get('sig')!,
      ),
    ).toBe(true);
  });

  it('drops the URL of a deleted asset at once: the ETag changes, no 304 keeps it alive', async () => {
    const assetId = await addAsset(server, owner.workspaceId);
    const target = await share({ models: [{ id: 'chair', fileName: 'chair.glb', assetId }], sceneData: {} });
    const first = await read(target);
    const etag = first.headers.get('etag')!;
    expect((await first.json()).project.data.models[0].url).toContain('/files/');
    expect((await read(target, { 'if-none-match': etag })).status).toBe(304);

    expect((await fetch(`${server.url}/assets/${assetId}`, { method: 'DELETE', headers: owner.headers })).status).toBe(
      200,
    );
    const after = await read(target, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await after.json()).project.data.models[0].url).toBeUndefined();
  });

  it('limits model-urls to 1..20 ids and applies the share checks', async () => {
    const target = await share({
      models: [{ id: 'a', fileName: 'a.glb', uploadedModelPath: 'models/a.glb' }],
      sceneData: {},
    });
    for (const ids of [[], Array.from({ length: 21 }, (_, i) => `m${i}`), 'a', [1]]) {
      const res = await modelUrls(target, ids);
      expect(res.status, JSON.stringify(ids)).toBe(400);
      expect((await res.json()).error).toBe('invalid_request');
    }
    const ok = await modelUrls(target, ['a']);
    expect((await ok.json()).urls.a).toContain(
      `/files/workspaces/${owner.workspaceId}/projects/${target.id}/models/a.glb?`,
    );
    expect((await modelUrls({ id: target.id, token: randomBytes(32).toString('base64url') }, ['a'])).status).toBe(404);
    expect((await modelUrls(target, ['a'], { apikey: 'nope' })).status).toBe(401);
    // The share checks come before the body, in the read's order: a wrong token is 404 and a
    // locked owner 402 whatever the body.
    expect((await modelUrls({ id: target.id, token: randomBytes(32).toString('base64url') }, [])).status).toBe(404);
    await setBilling(owner.workspaceId, 'locked');
    try {
      const locked = await modelUrls(
        target,
        Array.from({ length: 21 }, (_, i) => `m${i}`),
      );
      expect(locked.status).toBe(402);
      expect(await locked.json()).toEqual(UNAVAILABLE);
    } finally {
      await setBilling(owner.workspaceId, 'active');
    }
  });

  it('never signs files outside the project or the workspace', async () => {
    const other = await server.person('other@public-share.test');
    const foreignAsset = await addAsset(server, other.workspaceId);
    const ownAsset = await addAsset(server, owner.workspaceId);
    const target = await share({
      models: [
        { id: 'foreign', fileName: 'f.glb', assetId: foreignAsset },
        { id: 'escape', fileName: 'e.glb', uploadedModelPath: '../../../other/secret.glb' },
        { id: 'absolute', fileName: 'a.glb', uploadedModelPath: '/etc/passwd' },
        { id: 'own', fileName: 'o.glb', assetId: ownAsset },
        { id: 'upload', fileName: 'u.glb', uploadedModelPath: 'uploads/u.glb' },
      ],
      sceneData: {},
    });
    const { project } = await (await read(target)).json();
    const byId = Object.fromEntries(project.data.models.map((m: { id: string; url?: string }) => [m.id, m.url]));
    expect(byId.foreign).toBeUndefined();
    expect(byId.escape).toBeUndefined();
    expect(byId.absolute).toBeUndefined();
    expect(byId.own).toContain(`/files/workspaces/${owner.workspaceId}/assets/${ownAsset}.glb?`);
    expect(byId.upload).toContain(`/files/workspaces/${owner.workspaceId}/projects/${target.id}/uploads/u.glb?`);
    const fallback = await (await modelUrls(target, ['foreign', 'escape', 'absolute', 'own'])).json();
    expect(Object.keys(fallback.urls)).toEqual(['own']);
  });

  it('follows SIGNED_MODEL_LIMIT', async () => {
    const limited = await startTestServer({ SIGNED_MODEL_LIMIT: '2' });
    try {
      const person = await limited.person('limit@public-share.test');
      const models = [];
      for (let i = 0; i < 4; i++)
        models.push({ id: `m${i}`, fileName: 'x.glb', assetId: await addAsset(limited, person.workspaceId) });
      const target = await share({ models, sceneData: {} }, {}, limited, person);
      const { project } = await (await read(target, {}, limited)).json();
      expect(project.data.models.map((m: { url?: string }) => typeof m.url)).toEqual([
        'string',
        'string',
        'undefined',
        'undefined',
      ]);
      const fallback = await (await modelUrls(target, ['m2', 'm3'], {}, limited)).json();
      expect(Object.keys(fallback.urls)).toEqual(['m2', 'm3']);
    } finally {
      await limited.close();
    }
  });
});

describe('rate limit', () => {
  it('counts model-urls calls against the read budget', async () => {
    const limited = await startTestServer({ RATE_LIMIT_SHARE_READ: '3/1m' });
    try {
      const person = await limited.person('shared-budget@public-share.test');
      const target = await share(
        { models: [{ id: 'a', fileName: 'a.glb', uploadedModelPath: 'models/a.glb' }], sceneData: {} },
        {},
        limited,
        person,
      );
      expect((await read(target, {}, limited)).status).toBe(200);
      expect((await read(target, {}, limited)).status).toBe(200);
      expect((await modelUrls(target, ['a'], {}, limited)).status).toBe(200);
      // Three calls of either kind use up the one budget of 3.
      const urls = await modelUrls(target, ['a'], {}, limited);
      expect(urls.status).toBe(429);
      expect(Number(urls.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await read(target, {}, limited)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('allows RATE_LIMIT_SHARE_READ reads per IP, then 429 with Retry-After, before the share checks', async () => {
    const limited = await startTestServer({ RATE_LIMIT_SHARE_READ: '3/1m' });
    try {
      const person = await limited.person('rate@public-share.test');
      const target = await share(undefined, {}, limited, person);
      // Requests without the public key are refused before they are counted.
      for (let i = 0; i < 5; i++) expect((await read(target, { apikey: 'nope' }, limited)).status).toBe(401);
      expect((await read(target, {}, limited)).status).toBe(200);
      expect((await read(target, {}, limited)).status).toBe(200);
      expect((await read({ id: randomUUID(), token: target.token }, {}, limited)).status).toBe(404);
      const origin = 'https://shop.example.com';
      for (const attempt of [target, { id: randomUUID(), token: target.token }]) {
        const res = await read(attempt, { origin }, limited);
        expect(res.status).toBe(429);
        expect((await res.json()).error).toBe('rate_limited');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expectCors(res, origin);
      }
    } finally {
      await limited.close();
    }
  });
});

describe('client keys', () => {
  it('keys IPv6 clients by their /64 and IPv4 clients by their address, IPv4-mapped included', () => {
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::ffff')).toBe(clientKey('2001:db8:1:2:3:4:5:6'));
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('not an address')).toBe('not an address');
  });
});

describe('request logs', () => {
  it('masks share tokens and file signatures in URLs', () => {
    const id = randomUUID();
    expect(redactUrl(`/share/${id}/secret-token`)).toBe(`/share/${id}/***`);
    expect(redactUrl(`/share/${id}/secret-token/submit?x=1`)).toBe(`/share/${id}/***/submit?x=1`);
    expect(redactUrl('/files/workspaces/w/a.glb?exp=1&sig=abc')).toBe('/files/workspaces/w/a.glb?exp=1&sig=***');
    // The query parser decodes keys, so an encoded key is the same parameter.
    expect(redactUrl('/files/a.glb?exp=1&%73ig=abc')).toBe('/files/a.glb?exp=1&sig=***');
    expect(redactUrl('/projects/p?limit=5')).toBe('/projects/p?limit=5');
  });

  it('never writes a share token or a file signature to the request log', async () => {
    const port = await freePort();
    const env = await createTestEnv({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    const deps = createDeps(loadServerConfig(env.env));
    const lines: string[] = [];
    const app = await buildApp(deps, {
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      await app.listen({ port, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${port}`;
      const id = randomUUID();
      const token = randomBytes(32).toString('base64url');
      const sig = 'c2lnbmF0dXJlLW5vdC1mb3ItbG9ncw';
      await fetch(`${url}/share/${id}/${token}`, { headers: PUBLIC });
      await fetch(`${url}/share/${id}/${token}/model-urls`, {
        method: 'POST',
        headers: { ...PUBLIC, 'content-type': 'application/json' },
        body: '{"modelIds":["a"]}',
      });
      await fetch(`${url}/files/workspaces/${id}/assets/${id}.glb?exp=1&sig=${sig}`);

      const output = lines.join('');
      expect(output).not.toContain(token);
      expect(output).not.toContain(sig);
      const requests = lines
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.req)
        .map((entry) => entry.req);
      expect(requests.map((req) => req.url)).toEqual([
        `/share/${id}/***`,
        `/share/${id}/***/model-urls`,
        `/files/workspaces/${id}/assets/${id}.glb?exp=1&sig=***`,
      ]);
      expect(requests[0]).toMatchObject({ method: 'GET', hostname: '127.0.0.1', remoteAddress: '127.0.0.1' });
    } finally {
      await app.close();
      await closeDeps(deps);
      await env.cleanup();
    }
  });
});
