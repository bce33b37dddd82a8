import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchSystemChromium } from '../helpers/system-chromium.js';
import { freePort } from '../helpers/test-env.js';

/** A shop's pages on an origin of their own, and one headless Chromium to open them in. */
export interface ShopBrowser {
  browser: Browser;
  /** The page's address on the shop's origin. */
  url(page: string): string;
  close(): Promise<void>;
}

/**
 * Serves `pages` and model-viewer's bundle from a local origin, as a merchant's site would, to the system Chromium
 * headless (SwiftShader WebGL), so the element and model-viewer are measured under the same conditions.
 */
export async function openShopBrowser(pages: Record<string, string>): Promise<ShopBrowser> {
  const modelViewerJs = await readFile(path.resolve('node_modules/@google/model-viewer/dist/model-viewer.min.js'));
  const port = await freePort();
  const shop = createServer((request, response) => {
    if (request.url === '/model-viewer.min.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return response.end(modelViewerJs);
    }
    const html = pages[request.url ?? ''];
    response.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => shop.listen(port, '127.0.0.1', resolve));
  const browser = await launchSystemChromium().catch(async (error: unknown) => {
    await new Promise((resolve) => shop.close(resolve));
    throw error;
  });
  return {
    browser,
    url: (page) => `http://localhost:${port}${page}`,
    async close() {
      await browser.close();
      await new Promise((resolve) => shop.close(resolve));
    },
  };
}
