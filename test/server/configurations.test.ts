import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, createLocalJWKSet, decodeJwt, exportJWK, jwtVerify, type JWTPayload } from 'jose';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { TEST_SECRETS } from '../helpers/test-env.js';
import { ownerCaller } from '../helpers/owner-call.js';
import { cartStoolScene } from '../helpers/cart-stool.js';
import { dataUrl, png } from '../worker/submission-fixtures.js';
import { loadServerConfig } from '../../server/config.js';
import { hashPassword } from '#core/platform/password-hashing.js';
import { sweepExpiredConfigurations } from '#core/services/configuration-retention.js';
import { sweepUnclaimedFiles } from '#core/services/storage-sweep.js';
import { createConfigurationRepository } from '#core/repositories/configurations.js';

/** Cart configurations and their tokens (docs/cart.md), verified with jose as a shop's server would. */

const pem = (key: import('node:crypto').KeyObject, type: 'pkcs8' | 'spki') =>
  key.export({ type, format: 'pem' }).toString();
const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const current = pair();
const previous = pair();

let server: TestServer;
let owner: TestPerson;
const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);
const PUBLIC = {
  apikey: TEST_SECRETS.PUBLIC_ANON_KEY,
  authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}`,
  'content-type': 'application/json',
};

// Brass at 25.50: the price in minor units is checked against arithmetic with cents.
const STOOL = cartStoolScene({ skuSeparator: '/' }, 25.5);

async function sharedProject(sceneData: object = STOOL, share: object = {}, call = ownerCall) {
  const { project } = await call('POST', '/projects', {
    name: 'Stool',
    type: 'configurator',
    data: { models: [], sceneData },
  });
  const { settings } = await call('PUT', `/projects/${project.id}/share`, { isEnabled: true, ...share });
  return { projectId: project.id as string, token: settings.shareToken as string };
}

const create = (
  base: string,
  share: { projectId: string; token: string },
  body: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(`${base}/share/${share.projectId}/${share.token}/configurations`, {
    method: 'POST',
    headers: { ...PUBLIC, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function verify(token: string, base = server.url): Promise<JWTPayload> {
  const jwks = await (await fetch(`${base}/.well-known/jwks.json`)).json();
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    algorithms: ['ES256'],
    audience: 'config-share:cart',
    issuer: server.url,
  });
  return payload;
}

beforeAll(async () => {
  server = await startTestServer({
    CART_SIGNING_KEY: pem(current.privateKey, 'pkcs8'),
    CART_SIGNING_KEYS_PREVIOUS: pem(previous.publicKey, 'spki'),
    RATE_LIMIT_CONFIGURATIONS: '1000/5m',
    TRUST_PROXY: '127.0.0.1',
  });
  owner = await server.person('owner@cart.test');
});
afterAll(() => server.close());

describe('POST /share/:projectId/:token/configurations', () => {
  it('prices on the server, composes SKU and summary, and signs a token any JOSE library verifies', async () => {
    const share = await sharedProject();
    const res = await create(server.url, share, {
      options: { seat: 'walnut', legs: 'brass' },
      quantity: 3,
      // What a page might claim: never read.
      price: { total: 1, currency: 'EUR' },
      screenshot: dataUrl('image/png', png(16, 12)),
    });
    expect(res.status).toBe(201);
    const { configuration, token, ignored } = await res.json();
    // 149 + 40 + 25.50 in cents, three of them.
    expect(configuration).toMatchObject({
      projectId: share.projectId,
      revision: 1,
      options: { seat: 'walnut', legs: 'brass' },
      quantity: 3,
      total: 21_450 * 3,
      currency: 'EUR',
      sku: 'STOOL/WAL/BRS',
      summary: 'Seat: Walnut; Legs: Brass',
    });
    expect(configuration.price.total).toBe(21_450);
    expect(configuration.id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(ignored).toEqual([]);
    expect((await fetch(configuration.imageUrl)).status).toBe(200);
    const signedUntil = Number(new URL(configuration.imageUrl).searchParams.get('exp')) * 1000;
    expect(signedUntil - Date.now()).toBeGreaterThanOrEqual(365 * 86_400_000 - 60_000);
    expect(new Date(configuration.expiresAt).getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);

    const claims = await verify(token);
    expect(claims).toMatchObject({
      sub: configuration.id,
      pid: share.projectId,
      rev: 1,
      sku: 'STOOL/WAL/BRS',
      qty: 3,
      unit: 21_450,
      total: 64_350,
      cur: 'EUR',
    });
    expect(claims.exp! - claims.iat!).toBe(7 * 86_400);
    // Through the BFF's copy of the JWKS too is checked in test/bff; the header names the key and the type.
    const [header] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });

    const read = await fetch(`${server.url}/configurations/${configuration.id}`, { headers: PUBLIC });
    expect((await read.json()).configuration).toEqual(configuration);
    for (const unknown of ['abc', configuration.id.slice(1)]) {
      const missing = await fetch(`${server.url}/configurations/${unknown}`, { headers: PUBLIC });
      expect([missing.status, (await missing.json()).error]).toEqual([404, 'not_found']);
    }
  });

  it('has no price, total, currency or SKU without pricing and SKUs, in the answer and the token', async () => {
    const plain = {
      optionBlocks: STOOL.optionBlocks.map((block) => ({
        ...block,
        choices: block.choices.map(({ id, label, default: isDefault }) => ({ id, label, default: isDefault })),
      })),
      projectSettings: { cart: { enabled: true } },
    };
    const share = await sharedProject(plain);
    const res = await create(server.url, share, { options: { seat: 'walnut' }, quantity: 2 });
    expect(res.status).toBe(201);
    const { configuration, token } = await res.json();
    expect(configuration).toMatchObject({
      options: { seat: 'walnut', legs: 'steel' },
      price: null,
      total: null,
      currency: null,
      sku: null,
      summary: 'Seat: Walnut; Legs: Steel',
      imageUrl: null,
    });
    expect(await verify(token)).toMatchObject({ sub: configuration.id, qty: 2, unit: null, total: null, cur: null });
  });

  it('is described in the OpenAPI document with its answers and errors', async () => {
    const { paths } = await (await fetch(`${server.url}/openapi.json`)).json();
    const post = paths['/share/{projectId}/{token}/configurations'].post;
    expect(Object.keys(post.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '402', '403', '404', '429', '503']),
    );
    expect(Object.keys(post.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['options', 'fields', 'quantity', 'screenshot']),
    );
    expect(post.responses['201'].content['application/json'].schema.properties.token).toBeDefined();
    expect(paths['/configurations/{id}'].get.responses['404']).toBeDefined();
    expect(paths['/projects/{id}/configurations'].get).toBeDefined();
    expect(paths['/.well-known/jwks.json'].get.responses['200']).toBeDefined();
  });

  it('finds the same configuration again: 200, the first createdAt and picture kept, a fresh token', async () => {
    const share = await sharedProject();
    const body = { options: { legs: 'brass', seat: 'oak' }, quantity: 2 };
    const first = await (await create(server.url, share, { ...body, screenshot: dataUrl('image/png', png()) })).json();
    const again = await create(server.url, share, { quantity: 2, options: { seat: 'oak', legs: 'brass' } });
    expect(again.status).toBe(200);
    const repeat = await again.json();
    expect(repeat.configuration.id).toBe(first.configuration.id);
    expect(repeat.configuration.createdAt).toBe(first.configuration.createdAt);
    expect(repeat.configuration.imageUrl).not.toBeNull();
    expect(repeat.configuration.expiresAt >= first.configuration.expiresAt).toBe(true);
    expect((await create(server.url, share, { ...body, quantity: 5 })).status).toBe(201);

    const list = await ownerCall('GET', `/projects/${share.projectId}/configurations?limit=1`);
    expect(list.configurations).toHaveLength(1);
    expect(list.configurations[0].quantity).toBe(5);
    const next = await ownerCall(
      'GET',
      `/projects/${share.projectId}/configurations?limit=1&cursor=${list.nextCursor}`,
    );
    expect(next.configurations[0].id).toBe(first.configuration.id);
    const analytics = await ownerCall('GET', `/projects/${share.projectId}/analytics`);
    expect(analytics.totals.cartAdds).toBe(3);
  });

  it('makes one record of the same configuration added at once many times: one 201, the rest 200', async () => {
    const share = await sharedProject();
    const body = { options: { seat: 'walnut', legs: 'brass' }, quantity: 7 };
    const answers = await Promise.all(Array.from({ length: 40 }, () => create(server.url, share, body)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(39);
    const ids = new Set(await Promise.all(answers.map(async (res) => (await res.json()).configuration.id)));
    expect(ids.size).toBe(1);
  });

  it('answers a repeat in the same millisecond as the first add as a repeat', async () => {
    const share = await sharedProject();
    const repo = createConfigurationRepository(server.deps.db);
    const now = new Date();
    const values = {
      id: 'same-millisecond-configuration-id',
      projectId: share.projectId,
      workspaceId: owner.workspaceId,
      revision: 1,
      options: {},
      fields: {},
      quantity: 1,
      summary: '',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    };
    const day = now.toISOString().slice(0, 10);
    expect((await repo.createOrRepeat(values, day, now)).created).toBe(true);
    expect((await repo.createOrRepeat(values, day, now)).created).toBe(false);
  });

  it('takes the defaults for unknown or unavailable choices and lists them', async () => {
    const share = await sharedProject();
    const res = await create(server.url, share, { options: { seat: 'teak', colour: 'red' }, fields: { width: 2 } });
    const { configuration, ignored } = await res.json();
    expect(configuration.options).toEqual({ seat: 'oak', legs: 'steel' });
    expect(configuration.fields).toEqual({});
    expect(ignored.sort()).toEqual(['colour', 'seat', 'width']);
    expect(configuration.total).toBe(14_900);

    // Walnut rules steel legs out: asked for anyway, the legs move to the first available choice.
    const [seat, legs] = STOOL.optionBlocks;
    const ruled = await sharedProject({
      ...STOOL,
      optionBlocks: [seat, { ...legs, rules: [{ when: { seat: 'walnut' }, disable: ['steel'] }] }],
    });
    const unavailable = await (await create(server.url, ruled, { options: { seat: 'walnut', legs: 'steel' } })).json();
    expect(unavailable.configuration.options).toEqual({ seat: 'walnut', legs: 'brass' });
    expect(unavailable.ignored).toEqual(['legs']);
    expect(unavailable.configuration.sku).toBe('STOOL/WAL/BRS');
    expect(unavailable.configuration.total).toBe(21_450);
  });

  it('keeps the number fields the price reads, within their bounds, as a saved configuration does', async () => {
    const share = await sharedProject({
      ...STOOL,
      formFields: [
        { id: 'width', label: 'Width', type: 'number', min: 1, max: 20, default: 1 },
        { id: 'note', label: 'Note', type: 'number' },
      ],
      pricingFormula: [{ op: 'multiply', field: 'width', label: 'Width' }],
    });
    const make = async (fields: Record<string, number>) =>
      (await create(server.url, share, { options: {}, fields })).json();
    const wide = await make({ width: 25, note: 3 });
    expect(wide.configuration.fields).toEqual({ width: 20 });
    expect(wide.configuration.total).toBe(14_900 * 20);
    expect(wide.ignored).toEqual(['note']);
    // The same price inputs are the same configuration.
    expect((await make({ width: 20 })).configuration.id).toBe(wide.configuration.id);
    const plain = await make({});
    expect([plain.configuration.fields, plain.configuration.total]).toEqual([{ width: 1 }, 14_900]);
  });

  it('checks the share as the read does, then the cart, then the key, then the body, in that order', async () => {
    // Every request below is wrong in every later way too: a cart switched off and a body that is not JSON.
    const off = { ...STOOL, projectSettings: { cart: { enabled: false } } };
    const bad = 'not json';
    const share = await sharedProject(off, { domainRestrictions: ['shop.example.com'] });
    // A password whose hash is cheap (scrypt N=2^10): the product's own costs seconds on shared cores.
    await server.deps.db.$client.query(
      'update share_settings set require_password = true, password_hash = $1 where project_id = $2',
      [await hashPassword('pw', { ln: 10, r: 8, p: 1 }), share.projectId],
    );
    const locked = await server.person('locked@cart.test');
    const lockedCall = ownerCaller(
      () => server.url,
      () => locked.headers,
    );
    const lockedShare = await sharedProject(off, {}, lockedCall);
    await server.deps.services.workspaces.change(locked.workspaceId, { billingStatus: 'locked' });
    const shop = { origin: 'https://shop.example.com' };
    const answer = async (res: Response) => [res.status, (await res.json()).error];

    expect(await answer(await create(server.url, share, bad, { apikey: 'wrong' }))).toEqual([401, 'invalid_api_key']);
    const wrongToken = { ...lockedShare, token: 'x'.repeat(43) };
    expect(await answer(await create(server.url, wrongToken, bad, shop))).toEqual([404, 'not_found']);
    expect(await answer(await create(server.url, lockedShare, bad, { origin: 'https://elsewhere.example' }))).toEqual([
      402,
      'unavailable',
    ]);
    const elsewhere = await create(server.url, share, bad, { origin: 'https://elsewhere.example' });
    expect(await answer(elsewhere)).toEqual([403, 'domain_not_allowed']);
    expect(await answer(await create(server.url, share, bad, shop))).toEqual([401, 'password_required']);
    const wrongPassword = await create(server.url, share, bad, { ...shop, 'x-share-password': 'guess' });
    expect(await answer(wrongPassword)).toEqual([401, 'invalid_password']);
    const disabled = await create(server.url, share, bad, { ...shop, 'x-share-password': 'pw' });
    expect(await answer(disabled)).toEqual([403, 'cart_disabled']);

    const enabled = await sharedProject();
    const badBody = async (body: unknown, field: string) => {
      const res = await create(server.url, enabled, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const error = await res.json();
      expect(error.error).toBe('invalid_request');
      expect(JSON.stringify(error.details ?? error.message)).toContain(field);
    };
    await badBody({ quantity: 1 }, 'options');
    await badBody({ options: { seat: 7 } }, 'options');
    await badBody({ options: {}, fields: { width: 'wide' } }, 'fields');
    await badBody({ options: { ['b'.repeat(65)]: 'oak' } }, 'options');
    await badBody({ options: {}, fields: { ['f'.repeat(65)]: 1 } }, 'fields');
    await badBody({ options: {}, quantity: 0 }, 'quantity');
    await badBody({ options: {}, quantity: 1.5 }, 'quantity');
    await badBody({ options: {}, quantity: 10_001 }, 'quantity');
    await badBody({ options: {}, screenshot: 'https://example.com/a.png' }, 'screenshot');
    await badBody({ options: {}, screenshot: dataUrl('image/png', Buffer.alloc(1_100_000)) }, 'screenshot');

    const keyless = await startTestServer();
    try {
      const person = await keyless.person('owner@keyless.test');
      const call = ownerCaller(
        () => keyless.url,
        () => person.headers,
      );
      const switchedOff = await sharedProject(off, {}, call);
      expect(await answer(await create(keyless.url, switchedOff, bad))).toEqual([403, 'cart_disabled']);
      const target = await sharedProject(STOOL, {}, call);
      expect(await answer(await create(keyless.url, target, bad))).toEqual([503, 'cart_not_configured']);
      // Without a key the public read shows no cart, whatever the owner set.
      const read = await fetch(`${keyless.url}/share/${target.projectId}/${target.token}`, { headers: PUBLIC });
      expect((await read.json()).project.data.sceneData.projectSettings.cart.enabled).toBe(false);
      expect((await (await fetch(`${keyless.url}/.well-known/jwks.json`)).json()).keys).toEqual([]);
    } finally {
      await keyless.close();
    }
  });

  it('answers 429 with Retry-After past RATE_LIMIT_CONFIGURATIONS', async () => {
    const limited = await startTestServer({
      CART_SIGNING_KEY: pem(current.privateKey, 'pkcs8'),
      RATE_LIMIT_CONFIGURATIONS: '2/5m',
    });
    try {
      const person = await limited.person('owner@limited.test');
      const call = ownerCaller(
        () => limited.url,
        () => person.headers,
      );
      const { project } = await call('POST', '/projects', {
        name: 'S',
        type: 'configurator',
        data: { sceneData: STOOL },
      });
      const { settings } = await call('PUT', `/projects/${project.id}/share`, { isEnabled: true });
      const target = { projectId: project.id, token: settings.shareToken };
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push(await create(limited.url, target, { options: {}, quantity: i + 1 }));
      expect(statuses.map((res) => res.status)).toEqual([201, 201, 429]);
      expect(Number(statuses[2].headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await statuses[2].json()).toMatchObject({ success: false, error: 'rate_limited' });
      // The budget is the route's own: reads still pass. It comes after the public key and before the share.
      expect(
        (await fetch(`${limited.url}/share/${target.projectId}/${target.token}`, { headers: PUBLIC })).status,
      ).toBe(200);
      expect((await create(limited.url, target, 'not json', { apikey: 'wrong' })).status).toBe(401);
      expect((await create(limited.url, { ...target, token: 'x'.repeat(43) }, 'not json')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('cart tokens against the JWKS', () => {
  let token: string;
  beforeAll(async () => {
    token = (await (await create(server.url, await sharedProject(), { options: {} })).json()).token;
  });

  it('lists the signing key and the previous one, cacheable, without any private member', async () => {
    const res = await fetch(`${server.url}/.well-known/jwks.json`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const { keys } = await res.json();
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(key.d).toBeUndefined();
    }
    expect(keys[0].kid).toBe(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).kid);
  });

  it('refuses a forged, re-signed, altered or expired token, and accepts one of the previous key', async () => {
    const claims = decodeJwt(token);
    const signWith = (key: import('node:crypto').KeyObject, payload: JWTPayload, kid?: string) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'JWT', ...(kid ? { kid } : {}) }).sign(key);
    const { keys } = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();

    // Re-signed with a key the JWKS does not list, naming the real key's id.
    const stranger = pair();
    await expect(verify(await signWith(stranger.privateKey, claims, keys[0].kid))).rejects.toThrow();
    // Altered: a lower total with the original signature.
    const [header, , signature] = token.split('.');
    const cheaper = Buffer.from(JSON.stringify({ ...claims, total: 1 })).toString('base64url');
    await expect(verify(`${header}.${cheaper}.${signature}`)).rejects.toThrow();
    // Forged: no signature at all.
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${cheaper}.`;
    await expect(verify(none)).rejects.toThrow();
    // Algorithm confusion: HMAC keyed with the published public key.
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keys[0].kid })
      .sign(new TextEncoder().encode(JSON.stringify(keys[0])));
    await expect(verify(hmac)).rejects.toThrow();
    // Expired.
    const old = { ...claims, iat: 1_000, exp: 2_000 };
    await expect(verify(await signWith(current.privateKey, old, keys[0].kid))).rejects.toThrow(/exp/);
    // Rotation: a token of the previous key still verifies while its public key is listed.
    expect((await verify(await signWith(previous.privateKey, claims, keys[1].kid))).total).toBe(claims.total);
  });

  it("after a rotation, the old key's tokens verify while it is listed and fail once it is dropped", async () => {
    const next = pair();
    const rotated = await startTestServer({
      CART_SIGNING_KEY: pem(next.privateKey, 'pkcs8'),
      CART_SIGNING_KEYS_PREVIOUS: pem(current.publicKey, 'spki'),
    });
    const dropped = await startTestServer({ CART_SIGNING_KEY: pem(next.privateKey, 'pkcs8') });
    try {
      expect((await verify(token, rotated.url)).sub).toBe(decodeJwt(token).sub);
      await expect(verify(token, dropped.url)).rejects.toThrow();
      const { keys } = await (await fetch(`${rotated.url}/.well-known/jwks.json`)).json();
      expect(keys.map((key: { kid: string }) => key.kid)).toEqual([
        (await (await fetch(`${dropped.url}/.well-known/jwks.json`)).json()).keys[0].kid,
        JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).kid,
      ]);
    } finally {
      await rotated.close();
      await dropped.close();
    }
  });

  it('stops a process on a bad key with a message that names the setting and never the value', () => {
    const secret = pem(generateKeyPairSync('ed25519').privateKey, 'pkcs8');
    let message = '';
    try {
      loadServerConfig({ ...process.env, ...TEST_SECRETS, CART_SIGNING_KEY: secret });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('CART_SIGNING_KEY');
    expect(message).not.toContain(secret.split('\n')[1]);
  });

  it('stops a process given a private JWK among the previous keys, naming the setting and not the key', async () => {
    const jwk = await exportJWK(previous.privateKey);
    for (const value of [JSON.stringify([jwk]), JSON.stringify({ keys: [jwk] })]) {
      let message = '';
      try {
        loadServerConfig({ ...process.env, ...TEST_SECRETS, CART_SIGNING_KEYS_PREVIOUS: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('CART_SIGNING_KEYS_PREVIOUS');
      expect(message).not.toContain(jwk.d);
    }
  });

  it('reads JWK and JWK Set forms of the keys too', async () => {
    const jwk = { ...(await exportJWK(current.privateKey)) };
    const other = await startTestServer({
      CART_SIGNING_KEY: JSON.stringify(jwk),
      CART_SIGNING_KEYS_PREVIOUS: JSON.stringify({ keys: [await exportJWK(previous.publicKey)] }),
    });
    try {
      const { keys } = await (await fetch(`${other.url}/.well-known/jwks.json`)).json();
      const ours = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();
      expect(keys).toEqual(ours.keys);
    } finally {
      await other.close();
    }
  });
});

describe('retention', () => {
  it("keeps a live configuration's picture from the storage sweep, which removes an unclaimed one", async () => {
    const share = await sharedProject();
    const { configuration } = await (
      await create(server.url, share, { options: { legs: 'brass' }, screenshot: dataUrl('image/png', png()) })
    ).json();
    const { rows } = await server.deps.db.$client.query('select image_key from configurations where id = $1', [
      configuration.id,
    ]);
    const key: string = rows[0].image_key;
    const orphan = key.replace(/[^/]+$/, 'orphan.png');
    await server.deps.storage.put(orphan, png(), { contentType: 'image/png' });
    const swept = await sweepUnclaimedFiles(server.deps, { graceMs: 0, now: Date.now() + 1000 });
    expect(swept.removed).toContain(orphan);
    expect(swept.removed).not.toContain(key);
  });

  it('answers 404 past the retention and the sweep removes the row and its picture', async () => {
    const share = await sharedProject();
    const { configuration } = await (
      await create(server.url, share, { options: { seat: 'walnut' }, screenshot: dataUrl('image/png', png()) })
    ).json();
    const key = (
      await server.deps.db.$client.query('select image_key from configurations where id = $1', [configuration.id])
    ).rows[0].image_key;
    await server.deps.db.$client.query(
      `update configurations set expires_at = now() - interval '1 second' where id = $1`,
      [configuration.id],
    );
    const read = await fetch(`${server.url}/configurations/${configuration.id}`, { headers: PUBLIC });
    expect(read.status).toBe(404);
    expect(await sweepExpiredConfigurations(server.deps)).toBeGreaterThanOrEqual(1);
    expect(await server.deps.storage.head(key)).toBeNull();
    expect((await fetch(`${server.url}/configurations/${configuration.id}`, { headers: PUBLIC })).status).toBe(404);
  });

  it('gives an expired configuration started again with a picture its own, which no sweep takes', async () => {
    const share = await sharedProject();
    const body = { options: { legs: 'brass' }, quantity: 9 };
    const picture = dataUrl('image/png', png());
    const first = (await (await create(server.url, share, { ...body, screenshot: picture })).json()).configuration;
    const keyOf = async (id: string): Promise<string> =>
      (await server.deps.db.$client.query('select image_key from configurations where id = $1', [id])).rows[0]
        .image_key;
    const oldKey = await keyOf(first.id);
    await server.deps.db.$client.query(
      `update configurations set expires_at = now() - interval '1 second' where id = $1`,
      [first.id],
    );
    const restarted = await create(server.url, share, { ...body, screenshot: picture });
    expect(restarted.status).toBe(201);
    const { configuration } = await restarted.json();
    const newKey = await keyOf(first.id);
    expect(newKey).not.toBe(oldKey);
    await sweepExpiredConfigurations(server.deps);
    const swept = await sweepUnclaimedFiles(server.deps, { graceMs: 0, now: Date.now() + 1000 });
    expect(swept.removed).toContain(oldKey);
    expect((await fetch(configuration.imageUrl)).status).toBe(200);
  });

  it('starts an expired configuration not yet swept again; a repeat keeps the first picture', async () => {
    const share = await sharedProject();
    const body = { options: { seat: 'walnut' }, quantity: 4 };
    const first = (await (await create(server.url, share, body)).json()).configuration;
    // A repeat with a picture gives a configuration without one its picture; a later picture never replaces it.
    const pictured = await (
      await create(server.url, share, { ...body, screenshot: dataUrl('image/png', png()) })
    ).json();
    expect(pictured.configuration.imageUrl).not.toBeNull();
    const again = await (
      await create(server.url, share, { ...body, screenshot: dataUrl('image/png', png(4, 4)) })
    ).json();
    expect(again.configuration.imageUrl).toBe(pictured.configuration.imageUrl);
    expect(again.configuration.createdAt).toBe(first.createdAt);

    await server.deps.db.$client.query(
      `update configurations set expires_at = now() - interval '1 second', image_key = null where id = $1`,
      [first.id],
    );
    const restarted = await create(server.url, share, body);
    expect(restarted.status).toBe(201);
    const { configuration } = await restarted.json();
    expect(configuration.createdAt > first.createdAt).toBe(true);
    expect(new Date(configuration.expiresAt).getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);
    expect((await fetch(`${server.url}/configurations/${first.id}`, { headers: PUBLIC })).status).toBe(200);
  });
});
