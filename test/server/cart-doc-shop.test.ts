import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { freePort, TEST_SECRETS } from '../helpers/test-env.js';
import { ownerCaller } from '../helpers/owner-call.js';

/** The small Node shop of docs/cart.md, run as written: it verifies real tokens and refuses altered ones. */
let server: TestServer;
let owner: TestPerson;
let folder: string;
let shop: ChildProcess;
let shopUrl: string;

const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

beforeAll(async () => {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  server = await startTestServer({ CART_SIGNING_KEY: key.export({ type: 'pkcs8', format: 'pem' }).toString() });
  owner = await server.person('owner@doc-shop.test');
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
      BFF: 'http://127.0.0.1:1',
      PROJECT_ID: 'p',
      SHARE_TOKEN: 't',
      JWKS_URL: `${server.url}/.well-known/jwks.json`,
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
  await server.close();
});

async function newConfiguration(quantity: number) {
  const { project } = await ownerCall('POST', '/projects', {
    name: 'Doc stool',
    type: 'configurator',
    data: {
      sceneData: {
        optionBlocks: [{ id: 'seat', name: 'Seat', choices: [{ id: 'oak', label: 'Oak', sku: 'OAK', price: 10 }] }],
        pricingBlocks: [{ label: 'Base', price: 99.5 }],
        projectSettings: { pricing: { currency: 'USD' }, cart: { enabled: true, skuBase: 'ST' } },
      },
    },
  });
  const { settings } = await ownerCall('PUT', `/projects/${project.id}/share`, { isEnabled: true });
  const res = await fetch(`${server.url}/share/${project.id}/${settings.shareToken}/configurations`, {
    method: 'POST',
    headers: {
      apikey: TEST_SECRETS.PUBLIC_ANON_KEY,
      authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ options: { seat: 'oak' }, quantity }),
  });
  return (await res.json()) as { configuration: { id: string }; token: string };
}

const post = (fields: Record<string, string>) =>
  fetch(`${shopUrl}/cart/add`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

describe('the shop of docs/cart.md', () => {
  it('puts a verified line in its cart at the signed total, and refuses an altered or mismatched one', async () => {
    const { configuration, token } = await newConfiguration(2);
    const form = {
      config_share_token: token,
      config_share_id: configuration.id,
      quantity: '2',
      edit_url: 'https://shop.example/stool#cs=abc',
    };
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const cheaper = Buffer.from(JSON.stringify({ ...claims, total: 1 })).toString('base64url');
    expect((await post({ ...form, config_share_token: `${header}.${cheaper}.${signature}` })).status).toBe(400);
    expect((await post({ ...form, quantity: '1' })).status).toBe(400);

    const added = await post(form);
    expect([added.status, added.headers.get('location')]).toEqual([303, '/cart']);
    const cart = await (await fetch(`${shopUrl}/cart`)).text();
    // (99.50 + 10) × 2, in dollars, once.
    expect(cart.match(/<b class="total">([^<]*)<\/b>/g)).toEqual(['<b class="total">$219.00</b>']);
    expect(cart).toContain('ST-OAK × 2');
  });
});
