import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchSystemChromium } from '../helpers/system-chromium.js';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { freePort } from '../helpers/test-env.js';
import type { ChildProcessHandle } from '../helpers/child-process.js';
import { startConsoleBff } from '../helpers/console-bff.js';
import { ensureConsoleBuilt, ensureElementBuilt } from '../../scripts/start/element-build.js';
import { ownerCaller, sharedStoolProject } from '../helpers/owner-call.js';
import { cartStoolScene } from '../helpers/cart-stool.js';

/**
 * The cart hand-off end to end (docs/cart.md): the element on the share page, the BFF, the server's configurations
 * route and signing key, the demo shop's cart that verifies the token with jose (bff/routes/demo/shop-cart.ts), and
 * the owner console's Configurations view.
 */
/** Set to a folder to keep screenshots of the shop and the console. */
const SCREENSHOTS = process.env.CART_SCREENSHOTS;

let server: TestServer;
let bff: ChildProcessHandle;
let bffUrl: string;
let browser: Browser;
let owner: TestPerson;
let share: { projectId: string; token: string };

const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

/** The stool with SKUs, priced in euros without tax, its cart posting to the demo shop on the BFF. */
const CART_STOOL = {
  name: 'Cart stool',
  sceneData: cartStoolScene({ label: 'Add to cart', action: '/demo/shop/cart' }),
  camera: { position: { x: 0.9, y: 0.8, z: 0.9 }, target: { x: 0, y: 0.25, z: 0 } },
};

/** A P-256 key for the server's cart tokens (PKCS#8 PEM, as `npm start` generates one). */
const cartSigningKey = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

beforeAll(async () => {
  await Promise.all([ensureElementBuilt(() => {}), ensureConsoleBuilt(() => {})]);
  const bffPort = await freePort();
  bffUrl = `http://127.0.0.1:${bffPort}`;
  server = await startTestServer({
    TRUST_PROXY: '127.0.0.1,::1',
    CONSOLE_ORIGINS: bffUrl,
    CART_SIGNING_KEY: cartSigningKey(),
  });
  owner = await server.person('owner@cart.test');
  const started = startConsoleBff(server, bffPort);
  bff = started.bff;
  [share, browser] = await Promise.all([
    sharedStoolProject(ownerCall, CART_STOOL),
    launchSystemChromium(),
    started.ready,
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await server?.close();
}, 60_000);

async function shoot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

describe('the cart hand-off', () => {
  it('a shopper adds the configured stool; the shop verifies its token and shows the signed price', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${bffUrl}/share/${share.projectId}/${share.token}`);
    const element = page.locator('config-share');
    await expect.poll(() => element.getAttribute('state'), { timeout: 60_000 }).toBe('ready');
    await page.getByRole('radio', { name: /Walnut/ }).dispatchEvent('click');
    await page.getByRole('button', { name: 'One more' }).click();
    await page.locator('config-share [part="cart-button"]').click();

    // The element's form POST lands on the demo shop, which verified the token and redirected to its cart.
    await page.waitForURL(/\/demo\/shop\/cart\?added=/, { timeout: 30_000 });
    const line = page.locator('.line');
    expect(await line.locator('.sku').textContent()).toBe('STOOL-WAL-STL');
    expect(await line.locator('.quantity').textContent()).toBe('2');
    expect(await line.locator('.unit').textContent()).toBe('€189.00');
    expect(await line.locator('.line-total').textContent()).toBe('€378.00');
    expect(await line.locator('.choices').textContent()).toContain('Seat: Walnut');
    await expect
      .poll(() => line.locator('img').evaluate((img: any) => (img.complete ? img.naturalWidth : 0)))
      .toBeGreaterThan(0);
    await shoot(page, 'shop-cart-390');

    // "Change configuration" opens the share page again with the walnut seat restored.
    await page.getByRole('link', { name: 'Change configuration' }).click();
    await expect.poll(() => element.getAttribute('state'), { timeout: 60_000 }).toBe('ready');
    await expect
      .poll(() => element.evaluate((node: any) => node.getConfiguration()?.options.seat), { timeout: 20_000 })
      .toBe('walnut');
    await page.close();
  }, 150_000);

  it('the owner lists the configuration in the console and counts it in analytics', async () => {
    // One configuration of its own, as a merchant page's script would create it.
    const created = await fetch(`${bffUrl}/share/${share.projectId}/${share.token}/configurations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ options: { seat: 'oak', legs: 'brass' }, quantity: 3 }),
    });
    expect(created.status).toBe(201);
    // The BFF serves the JWK Set and the configuration read a shop needs, with no key of its own.
    const viaBff = await (await fetch(`${bffUrl}/.well-known/jwks.json`)).json();
    expect(viaBff).toEqual(await (await fetch(`${server.url}/.well-known/jwks.json`)).json());
    const { configuration } = await created.json();
    const read = await fetch(`${bffUrl}/configurations/${configuration.id}`);
    expect((await read.json()).configuration.sku).toBe('STOOL-OAK-BRS');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${bffUrl}/demo/owner/#token=${owner.token}`);
    await page.getByRole('button', { name: CART_STOOL.name }).click();
    await page.getByRole('button', { name: 'Configurations' }).click();
    const panel = page.locator('configurations-panel');
    await expect.poll(() => panel.locator('tr[data-configuration]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await panel.locator('.sku').allTextContents()).toContain('STOOL-OAK-BRS');
    await shoot(page, 'console-configurations');

    await page.getByRole('button', { name: 'Analytics' }).click();
    const added = page.locator('analytics-panel tr[data-counter="cartAdds"] td');
    await expect.poll(() => added.textContent(), { timeout: 20_000 }).not.toBe('0');
    await shoot(page, 'console-analytics');
    await page.close();
  }, 90_000);
});
