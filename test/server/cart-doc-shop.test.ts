import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startTestBff, type TestBff } from '../helpers/bff-app.js';
import { freePort } from '../helpers/test-env.js';
import { ownerCaller } from '../helpers/owner-call.js';

/**
 * The small Node shop of docs/cart.md, run as written against a server and a BFF: it takes real tokens at their
 * signed total, and refuses forged, re-signed, altered, expired and foreign ones with the documented checks.
 */
const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const current = pair();
const previous = pair();

let server: TestServer;
let bff: TestBff;
let owner: TestPerson;
let folder: string;
let shop: ChildProcess;
let shopUrl: string;
let product: { projectId: string; token: string };

const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

async function sharedProduct(price: number) {
  const { project } = await ownerCall('POST', '/projects', {
    name: 'Doc stool',
    type: 'configurator',
    data: {
      sceneData: {
        optionBlocks: [{ id: 'seat', name: 'Seat', choices: [{ id: 'oak', label: 'Oak', sku: 'OAK', price: 10 }] }],
        pricingBlocks: [{ label: 'Base', price }],
        projectSettings: { pricing: { currency: 'USD' }, cart: { enabled: true, skuBase: 'ST', action: '/cart/add' } },
      },
    },
  });
  const { settings } = await ownerCall('PUT', `/projects/${project.id}/share`, { isEnabled: true });
  return { projectId: project.id as string, token: settings.shareToken as string };
}

beforeAll(async () => {
  server = await startTestServer({
    CART_SIGNING_KEY: current.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    CART_SIGNING_KEYS_PREVIOUS: previous.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    TRUST_PROXY: '127.0.0.1',
  });
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url });
  owner = await server.person('owner@doc-shop.test');
  product = await sharedProduct(99.5);

  const doc = await readFile(new URL('../../docs/cart.md', import.meta.url), 'utf8');
  const [code] = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]);
  folder = await mkdtemp(path.join(tmpdir(), 'cs-doc-shop-'));
  await writeFile(path.join(folder, 'shop.mjs'), code);
  // The shop imports jose as its own dependency would be installed.
  await symlink(path.resolve('node_modules'), path.join(folder, 'node_modules'));
  const port = await freePort();
  shopUrl = `http://127.0.0.1:${port}`;
  shop = spawn(process.execPath, ['shop.mjs'], {
    cwd: folder,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      BFF: bff.url,
      PROJECT_ID: product.projectId,
      SHARE_TOKEN: product.token,
      ISSUER: server.config.publicBaseUrl,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    shop.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('shop on') && resolve());
    shop.once('exit', (code) => reject(new Error(`the shop exited with ${code}`)));
  });
});
afterAll(async () => {
  shop?.kill();
  await rm(folder, { recursive: true, force: true });
  await bff?.close();
  await server?.close();
});

/** A configuration created through the BFF, as the element on the shop's page creates it. */
async function newConfiguration(share: { projectId: string; token: string }, quantity: number) {
  const res = await fetch(`${bff.url}/share/${share.projectId}/${share.token}/configurations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${quantity}` },
    // A price the page claims is never read.
    body: JSON.stringify({ options: { seat: 'oak' }, quantity, price: { total: 1, currency: 'USD' } }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { configuration: { id: string }; token: string };
}

const post = (fields: Record<string, string>) =>
  fetch(`${shopUrl}/cart/add`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

const signWith = (key: KeyObject, payload: JWTPayload, header: { kid?: string; alg?: string } = {}) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'JWT', ...header }).sign(key);

describe('the shop of docs/cart.md', () => {
  it('puts a verified line in its cart at the signed total', async () => {
    const page = await (await fetch(shopUrl)).text();
    expect(page).toContain(`<config-share project-id="${product.projectId}" token="${product.token}">`);
    expect(page).toContain(`src="${bff.url}/element/config-share.js"`);

    const { configuration, token } = await newConfiguration(product, 2);
    const added = await post({
      config_share_token: token,
      config_share_id: configuration.id,
      quantity: '2',
      edit_url: 'https://shop.example/stool#cs=abc',
    });
    expect([added.status, added.headers.get('location')]).toEqual([303, '/cart']);
    const cart = await (await fetch(`${shopUrl}/cart`)).text();
    // (99.50 + 10) × 2, in dollars, once: the price the page claimed was not read.
    expect(cart.match(/<b class="total">([^<]*)<\/b>/g)).toEqual(['<b class="total">$219.00</b>']);
    expect(cart).toContain('ST-OAK × 2');
  });

  it('refuses forged, re-signed, altered, expired, foreign and mismatched tokens', async () => {
    const { configuration, token } = await newConfiguration(product, 3);
    const form = { config_share_id: configuration.id, quantity: '3', edit_url: 'https://shop.example/stool' };
    const claims = decodeJwt(token);
    const { kid } = decodeProtectedHeader(token);
    const [header, , signature] = token.split('.');
    const encoded = (payload: object) => Buffer.from(JSON.stringify(payload)).toString('base64url');
    const other = await sharedProduct(0.01);

    const refused: Record<string, string> = {
      // A lower total under the original signature.
      altered: `${header}.${encoded({ ...claims, total: 1 })}.${signature}`,
      // No signature at all.
      forged: `${encoded({ alg: 'none', typ: 'JWT' })}.${encoded({ ...claims, total: 1 })}.`,
      // Signed with a key the JWKS does not list, naming the real key's id.
      resigned: await signWith(pair().privateKey, { ...claims, total: 1 }, { kid }),
      expired: await signWith(current.privateKey, { ...claims, iat: 1_000, exp: 2_000 }, { kid }),
      otherIssuer: await signWith(current.privateKey, { ...claims, iss: 'https://other.example' }, { kid }),
      otherAudience: await signWith(current.privateKey, { ...claims, aud: 'someone-else' }, { kid }),
    };
    for (const [name, bad] of Object.entries(refused)) {
      const res = await post({ ...form, config_share_token: bad });
      expect(res.status, name).toBe(400);
    }
    // A real token, form and all, of a project that is not the shop's, priced by whoever owns it.
    const foreign = await newConfiguration(other, 3);
    const posted = { ...form, config_share_token: foreign.token, config_share_id: foreign.configuration.id };
    expect((await post(posted)).status).toBe(400);
    expect((await post({ ...form, config_share_token: token, quantity: '1' })).status).toBe(400);
    expect((await post({ ...form, config_share_token: token, config_share_id: 'x'.repeat(43) })).status).toBe(400);
    const cart = await (await fetch(`${shopUrl}/cart`)).text();
    expect(cart).not.toContain('× 3');
  });

  it('takes a token of the previous key while its public key is in CART_SIGNING_KEYS_PREVIOUS', async () => {
    const { configuration, token } = await newConfiguration(product, 4);
    const keys = await fetch(`${bff.url}/.well-known/jwks.json`);
    expect(keys.headers.get('cache-control')).toBe('public, max-age=3600');
    const jwks = await keys.json();
    expect(jwks.keys).toHaveLength(2);
    const old = await signWith(previous.privateKey, decodeJwt(token), { kid: jwks.keys[1].kid });
    const res = await post({ config_share_token: old, config_share_id: configuration.id, quantity: '4', edit_url: '' });
    expect(res.status).toBe(303);
    expect(await (await fetch(`${shopUrl}/cart`)).text()).toContain('ST-OAK × 4');
  });
});
