import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchSystemChromium } from '../helpers/system-chromium.js';
import sharp from 'sharp';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { freePort } from '../helpers/test-env.js';
import { noticesHeard, startTestBff, type TestBff } from '../helpers/bff-app.js';
import { waitFor } from '../worker/submission-fixtures.js';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { ensureElementBuilt } from '../../scripts/start/element-build.js';
import { ownerCaller } from '../helpers/owner-call.js';

/**
 * The share link as a page in Chromium: viewer, iframe allowed or blocked (frame-ancestors), oEmbed, disabled link.
 * The shop is `localhost` (the BFF is `127.0.0.1`); `127.0.0.1` on the shop's port plays a host not allowed.
 */

let server: TestServer;
let bff: TestBff;
let shop: Server;
let shopPort: number;
let browser: Browser;
let owner: TestPerson;
/** The shop's pages, by path, set by each test. */
const shopPages = new Map<string, string>();

const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

interface Shared {
  projectId: string;
  token: string;
  link: string;
}

/** A project with the demo stool as its one model, shared with `settings`. */
async function sharedStool(name: string, settings: Record<string, unknown> = {}): Promise<Shared> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await demoStoolGlb())], { type: 'model/gltf-binary' }), 'stool.glb');
  const { asset } = await ownerCall('POST', '/assets', form);
  const { project } = await ownerCall('POST', '/projects', {
    name,
    type: 'configurator',
    data: {
      models: [
        {
          id: 'stool',
          fileName: asset.fileName,
          assetId: asset.id,
          position: [0, 0, 0],
          rotation: [0, 0, 0],
          scale: [1, 1, 1],
        },
      ],
      sceneData: { formFields: [{ id: 'email', label: 'E-mail', type: 'email', required: true }] },
      camera: { position: { x: 0.9, y: 0.8, z: 0.9 }, target: { x: 0, y: 0.25, z: 0 } },
    },
  });
  const { settings: stored } = await ownerCall('PUT', `/projects/${project.id}/share`, {
    isEnabled: true,
    ...settings,
  });
  await noticesHeard(bff, server.config.queuePrefix);
  return {
    projectId: project.id,
    token: stored.shareToken,
    link: `${bff.url}/share/${project.id}/${stored.shareToken}`,
  };
}

/** A shop page holding `body`, at `http://<host>:<shop port>/<name>`. */
function shopPage(host: 'localhost' | '127.0.0.1', name: string, body: string): string {
  shopPages.set(
    `/${name}`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>A ` +
      `shop</h1>${body}</body></html>`,
  );
  return `http://${host}:${shopPort}/${name}`;
}

/** A non-blank screenshot of the element's scene, taken in `frame`. */
async function renderedFrame(frame: Page | Frame): Promise<void> {
  const element = frame.locator('config-share');
  await waitFor(
    async () => {
      const png: string | null = await element.evaluate((node: any) => node.screenshot());
      if (!png) return null;
      const { channels } = await sharp(Buffer.from(png.split(',')[1], 'base64')).stats();
      return channels.slice(0, 3).some((channel) => channel.stdev > 1) ? true : null;
    },
    'a rendered frame',
    60_000,
  );
}

/** The frame an iframe on `page` loaded (its first child frame). */
async function iframeOf(page: Page): Promise<Frame> {
  await page.locator('iframe').waitFor();
  return waitFor(async () => page.frames().find((frame) => frame !== page.mainFrame()) ?? null, 'the iframe', 10_000);
}

/** The console messages that report a CSP refusal. */
function cspReports(page: Page): string[] {
  const reports: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) reports.push(message.text());
  });
  return reports;
}

beforeAll(async () => {
  await ensureElementBuilt(() => {});
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1,::1' });
  owner = await server.person('owner@share-page-e2e.test');
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url });
  shopPort = await freePort();
  shop = createServer((request, response) => {
    const page = shopPages.get(new URL(request.url ?? '/', 'http://shop').pathname);
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => shop.listen(shopPort, '127.0.0.1', resolve));
  browser = await launchSystemChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await bff?.close();
  await server?.close();
});

describe('the share link in a browser', () => {
  it('opens the full-page viewer with the preview tags, under its own strict CSP', async () => {
    const share = await sharedStool('Bar stool "Oak" <3');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const csp = cspReports(page);
    const res = await page.goto(share.link);
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.locator('config-share').getAttribute('state'), { timeout: 60_000 }).toBe('ready');
    await renderedFrame(page);

    expect(await page.title()).toBe('Bar stool "Oak" <3');
    const meta = (key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`).getAttribute('content');
    expect(await meta('og:title')).toBe('Bar stool "Oak" <3');
    expect(await meta('og:url')).toBe(share.link);
    expect(await meta('og:image')).toBe(`${bff.url}/viewer/preview.png`);
    expect(await meta('twitter:card')).toBe('summary_large_image');
    expect(await meta('description')).toBe('View Bar stool "Oak" <3 in 3D and configure it in your browser.');
    const oembedHref = await page.locator('link[type="application/json+oembed"]').getAttribute('href');
    expect(oembedHref).toBe(`${bff.url}/oembed?url=${encodeURIComponent(share.link)}&format=json`);

    // The viewer fills the page, and the element's form is there.
    const box = (await page.locator('config-share').boundingBox())!;
    expect(box.width).toBe(1280);
    expect(box.height).toBeGreaterThanOrEqual(800);
    await expect.poll(() => page.locator('config-share input[name="email"]').count()).toBe(1);
    expect(errors).toEqual([]);
    expect(csp).toEqual([]);
    await page.close();
  }, 180_000);

  it('renders in an iframe on an allowed host, and the browser blocks it on another', async () => {
    const share = await sharedStool('Framed stool', { domainRestrictions: ['localhost'] });
    const snippet = `<iframe src="${share.link}" width="640" height="480" style="border:0"></iframe>`;

    const allowed = await browser.newPage();
    await allowed.goto(shopPage('localhost', 'allowed', snippet));
    const frame = await iframeOf(allowed);
    await expect
      .poll(
        () =>
          frame
            .locator('config-share')
            .getAttribute('state')
            .catch(() => null),
        { timeout: 60_000 },
      )
      .toBe('ready');
    await renderedFrame(frame);
    await allowed.close();

    const other = await browser.newPage();
    const csp = cspReports(other);
    await other.goto(shopPage('127.0.0.1', 'other', snippet));
    const blocked = await iframeOf(other);
    // Chromium replaces a frame its ancestors may not hold with an error page, and says why.
    await expect.poll(() => csp.some((text) => text.includes('frame-ancestors')), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => blocked.url(), { timeout: 15_000 }).not.toBe(share.link);
    expect(
      await blocked
        .locator('config-share')
        .count()
        .catch(() => 0),
    ).toBe(0);
    await other.close();
  }, 180_000);

  it('embeds and renders the oEmbed HTML on a merchant page', async () => {
    const share = await sharedStool('Embedded stool');
    const res = await fetch(`${bff.url}/oembed?url=${encodeURIComponent(share.link)}&format=json&maxwidth=600`);
    expect(res.status).toBe(200);
    const oembed = await res.json();
    expect(oembed).toMatchObject({ type: 'rich', version: '1.0', title: 'Embedded stool', width: 600, height: 450 });

    const page = await browser.newPage();
    await page.goto(shopPage('localhost', 'oembed', oembed.html));
    const frame = await iframeOf(page);
    await expect
      .poll(
        () =>
          frame
            .locator('config-share')
            .getAttribute('state')
            .catch(() => null),
        { timeout: 60_000 },
      )
      .toBe('ready');
    await renderedFrame(frame);
    const box = (await page.locator('iframe').boundingBox())!;
    expect([box.width, box.height]).toEqual([600, 450]);
    await page.close();
  }, 180_000);

  it('shows the not-available page for a disabled link, in the page and in an embed', async () => {
    const share = await sharedStool('Withdrawn stool', { domainRestrictions: ['localhost'] });
    await ownerCall('PUT', `/projects/${share.projectId}/share`, { isEnabled: false });
    await noticesHeard(bff, server.config.queuePrefix);

    const page = await browser.newPage();
    const res = await page.goto(share.link);
    expect(res?.status()).toBe(404);
    const element = page.locator('config-share');
    await expect.poll(() => element.getAttribute('state'), { timeout: 30_000 }).toBe('not-found');
    await expect(page.title()).resolves.toBe('Not available');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    expect(await page.locator('config-share [part="status"]').textContent()).toContain('could not be found');
    expect(await page.locator('meta[property="og:image"]').count()).toBe(0);
    await page.close();

    // The embed on the once-allowed shop goes offline with the link: the not-available state, not the project.
    const embed = await browser.newPage();
    await embed.goto(
      shopPage('localhost', 'withdrawn', `<iframe src="${share.link}" width="640" height="480"></iframe>`),
    );
    const frame = await iframeOf(embed);
    await expect
      .poll(
        () =>
          frame
            .locator('config-share')
            .getAttribute('state')
            .catch(() => null),
        { timeout: 30_000 },
      )
      .toBe('not-found');
    await embed.close();
  }, 120_000);
});
