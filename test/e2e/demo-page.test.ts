import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchSystemChromium } from '../helpers/system-chromium.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startTestBff, type TestBff } from '../helpers/bff-app.js';
import { ensureElementBuilt } from '../../scripts/start/element-build.js';
import { ensureDemoProject, type DemoShare } from '../../scripts/start/demo-data.js';
import { ROOT } from '../../scripts/start/paths.js';

/**
 * The merchant demo page (demo/, at /demo/) as QA uses it, with the demo stool `npm start` creates: at a phone's, a
 * small window's and a desktop's width it never scrolls sideways, with the QA panel's event lines and after "Save
 * this configuration" (a saved link of some 200 characters without a space, on the page and in the events).
 */

let server: TestServer;
let bff: TestBff;
let browser: Browser;
let demoDir: string;

beforeAll(async () => {
  await ensureElementBuilt(() => {});
  server = await startTestServer();
  const owner = await server.person('demo@demo-page-e2e.test');
  const demo = await ensureDemoProject(server.url, owner.token);
  // The page as the repository has it, with the shares.json `npm start` would write beside it.
  demoDir = await mkdtemp(path.join(tmpdir(), 'demo-page-'));
  for (const file of ['index.html', 'demo.css', 'demo.js', 'favicon.svg'])
    await cp(path.join(ROOT, 'demo', file), path.join(demoDir, file));
  const plain: DemoShare = {
    key: 'plain',
    label: 'Plain share',
    expect: 'ready',
    projectId: demo.projectId,
    token: demo.share!.shareToken,
  };
  await writeFile(path.join(demoDir, 'shares.json'), JSON.stringify({ shares: [plain] }));
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url }, { demoDir });
  browser = await launchSystemChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await bff?.close();
  await server?.close();
  if (demoDir) await rm(demoDir, { recursive: true, force: true });
});

describe('the demo page', () => {
  for (const [width, height] of [
    [390, 844],
    [800, 600],
    [1440, 900],
  ]) {
    it(`never scrolls sideways at ${width}x${height}, with the QA panel's events and after a save`, async () => {
      const page = await browser.newPage({ viewport: { width, height } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${bff.url}/demo/?state=plain`);
      await expect.poll(() => page.locator('config-share').getAttribute('state'), { timeout: 60_000 }).toBe('ready');
      const events = page.locator('#events li');
      await expect
        .poll(() => events.allTextContents(), { timeout: 60_000 })
        .toContainEqual(expect.stringContaining('config-share-price'));
      const overflow = () =>
        page.evaluate(() => {
          const { document, innerWidth } = globalThis as any;
          return { page: document.documentElement.scrollWidth, window: innerWidth };
        });
      await page.locator('#qa').scrollIntoViewIfNeeded();
      expect(await overflow(), 'the QA panel with its events').toEqual({ page: width, window: width });

      await page.locator('config-share [part="save-button"]').click();
      await page.locator('#saved-link').waitFor();
      await expect.poll(() => events.first().textContent()).toContain('config-share-save');
      expect((await page.locator('#saved-link').textContent())!.length).toBeGreaterThan(100);
      expect(await overflow(), 'after a save').toEqual({ page: width, window: width });
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
