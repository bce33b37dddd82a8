import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { decodeConfiguration } from '#core/wire/configurator/index.js';
import { TEST_SECRETS, freePort } from '../helpers/test-env.js';
import { startTestBff, type TestBff } from '../helpers/bff-app.js';

/**
 * The demo shop's cart route as a merchant's server: the element's form POST with a cart token, verified against the
 * configurator server's JWKS. The upstream here is a stand-in serving a key set and stored configurations.
 */
let signing: CryptoKey;
let stranger: CryptoKey;
let jwks: { keys: JWK[] };
let upstream: Server;
let upstreamUrl: string;
let bff: TestBff;

const CONFIGURATION = {
  id: 'Wm9vM2ZpZ3VyYXRpb24tMDAx',
  projectId: '7f1c2a9e-4b8d-4c3e-9a1f-2d6b8e0c5a11',
  revision: 3,
  options: { seat: 'walnut', legs: 'brass', backrest: 'off' },
  fields: {},
  quantity: 2,
  price: { currency: 'EUR', decimals: 2, subtotal: 21_400, total: 21_400, lines: [], tax: null },
  total: 42_800,
  currency: 'EUR',
  sku: 'STOOL-WAL-BRS',
  summary: 'Seat: Walnut; Legs: Brass; Backrest: Without backrest',
  imageUrl: 'https://files.example.com/files/cfg.png?sig=abc',
  createdAt: '2026-11-28T10:00:00.000Z',
  expiresAt: '2027-11-28T10:00:00.000Z',
};

const claimsOf = (configuration = CONFIGURATION) => ({
  sub: configuration.id,
  pid: configuration.projectId,
  rev: configuration.revision,
  sku: configuration.sku,
  qty: configuration.quantity,
  unit: configuration.price.total,
  total: configuration.total,
  cur: configuration.currency,
});

async function tokenOf(key: CryptoKey, claims: Record<string, unknown>, expires: string | number = '7d') {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'JWT' })
    .setIssuer('http://config-share.test')
    .setAudience('config-share:cart')
    .setIssuedAt()
    .setExpirationTime(expires)
    .sign(key);
}

beforeAll(async () => {
  ({ privateKey: stranger } = await generateKeyPair('ES256'));
  const pair = await generateKeyPair('ES256', { extractable: true });
  signing = pair.privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  upstream = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(jwks));
    }
    if (req.url === `/configurations/${CONFIGURATION.id}` && req.headers.apikey === TEST_SECRETS.PUBLIC_ANON_KEY) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ success: true, configuration: CONFIGURATION }));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, error: 'not_found' }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  bff = await startTestBff({ ...TEST_SECRETS, BFF_UPSTREAM_URL: upstreamUrl, LOG_LEVEL: 'silent' });
});

afterAll(async () => {
  await bff?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

/** The element's top-level form POST (docs/cart.md), as the browser sends it. */
const postLine = (fields: Record<string, string>, cookie = '') =>
  fetch(`${bff.url}/demo/shop/cart`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
  });

const fieldsOf = (token: string, configuration = CONFIGURATION) => ({
  config_share_token: token,
  config_share_id: configuration.id,
  quantity: String(configuration.quantity),
  edit_url: `${bff.url}/demo/?state=plain#cs=stale`,
});

/** The cart cookie a response sets, as the browser sends it back. */
const cookieOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0];

const cartPage = (cookie: string) => fetch(`${bff.url}/demo/shop/cart`, { headers: { cookie } });

describe('the demo shop cart', () => {
  it('verifies the token, keeps the line and shows it at the signed price with picture, summary and SKU', async () => {
    const added = await postLine(fieldsOf(await tokenOf(signing, claimsOf())));
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`/demo/shop/cart?added=${CONFIGURATION.id}`);
    const setCookie = added.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^demo_shop_cart=.+; Path=\/demo\/shop; HttpOnly; SameSite=Lax; Max-Age=604800$/);

    const page = await fetch(`${bff.url}${added.headers.get('location')}`, { headers: { cookie: cookieOf(added) } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('Added to your cart: The Demo Stool.');
    expect(html).toContain('<dd class="sku">STOOL-WAL-BRS</dd>');
    expect(html).toContain('<dd class="quantity">2</dd>');
    expect(html).toContain('<dd class="unit">€214.00</dd>');
    expect(html).toContain('<p class="line-total">€428.00</p>');
    expect(html).toContain('<li>Seat: Walnut</li><li>Legs: Brass</li>');
    expect(html).toContain(`src="${CONFIGURATION.imageUrl.replace('&', '&amp;')}"`);
    // The edit link: the product page on the shop's origin, with the stored configuration as `#cs=`.
    const edit = /href="(\/demo\/\?state=plain#cs=([^"]+))"/.exec(html);
    expect(edit).not.toBeNull();
    expect(decodeConfiguration(edit![2])).toMatchObject({
      projectId: CONFIGURATION.projectId,
      options: CONFIGURATION.options,
    });
    expect(html).toContain('2 items');
  });

  it('refuses a token the server did not sign, an expired one, and a form whose id is not the signed one', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [fieldsOf(await tokenOf(stranger, claimsOf())), 'signature does not check out'],
      [fieldsOf(await tokenOf(signing, claimsOf(), Math.floor(Date.now() / 1000) - 60)), 'has expired'],
      [{ ...fieldsOf(await tokenOf(signing, claimsOf())), config_share_id: 'another' }, 'does not match'],
      [{ ...fieldsOf(await tokenOf(signing, claimsOf())), quantity: '20' }, 'does not match'],
      [{ ...fieldsOf('not-a-token'), config_share_token: 'not a token' }, 'without its signed token'],
    ];
    for (const [fields, message] of cases) {
      const res = await postLine(fields);
      expect(res.status, message).toBe(400);
      const html = await res.text();
      expect(html).toContain(message);
      expect(html).toContain('Your cart is empty');
    }
  });

  it('answers 503 and adds nothing while the key set cannot be read', async () => {
    // A shop whose configurator server does not answer (nothing listens on the port).
    const down = await startTestBff({
      ...TEST_SECRETS,
      BFF_UPSTREAM_URL: `http://127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'silent',
    });
    try {
      const res = await fetch(`${down.url}/demo/shop/cart`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fieldsOf(await tokenOf(signing, claimsOf()))),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('set-cookie')).toContain('Max-Age=0');
      expect(await res.text()).toContain('keys could not be read');
    } finally {
      await down.close();
    }
  });

  it('removes a line, and drops lines whose token expired since', async () => {
    const added = await postLine(fieldsOf(await tokenOf(signing, claimsOf())));
    const cookie = cookieOf(added);
    const removed = await fetch(`${bff.url}/demo/shop/cart/remove`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ line: CONFIGURATION.id }),
    });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(await (await cartPage(cookieOf(removed))).text()).toContain('Your cart is empty');

    // A line kept while its token was valid, shown after the token's time ran out.
    const expired = await tokenOf(signing, claimsOf(), Math.floor(Date.now() / 1000) - 60);
    const html = await (await cartPage(`demo_shop_cart=${expired}:`)).text();
    expect(html).toContain('1 line expired and left your cart.');
    expect(html).toContain('Your cart is empty');
  });
});
