import { createServer } from 'node:http';
import type { Browser } from 'playwright-core';
import { launchSystemChromium } from './system-chromium.js';
import { startTestServer, type TestServer } from './test-server.js';
import { freePort } from './test-env.js';
import { startTsProcess } from './child-process.js';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.js';
import { startTestWorker, waitFor } from '../worker/submission-fixtures.js';
import type { WorkerApp } from '../../worker/app.js';
import { ensureElementBuilt } from '../../scripts/start/element-build.js';

/** What a merchant-page test runs besides its own receivers. */
export interface MerchantShopOptions {
  /** Settings for the server and the worker beyond the e-mail catcher's and the trusted proxy's. */
  env?: Record<string, string>;
  /** The element's box on the shop page, in CSS pixels. */
  width: number;
  height: number;
}

export interface MerchantShop {
  smtp: SmtpCatcher;
  server: TestServer;
  worker: WorkerApp;
  /** The shop page at `/?share=<projectId>&share=<token>`, on another origin than the BFF's. */
  shopUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * The whole product as a merchant runs it: server, worker, e-mail catcher, BFF, and a shop page on
 * another origin embedding the element with one script tag, visited by Chromium.
 */
export async function startMerchantShop({ env = {}, width, height }: MerchantShopOptions): Promise<MerchantShop> {
  // Stopped in reverse, also when a later start fails, so a failed set-up leaves nothing running.
  const stops: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    await ensureElementBuilt(() => {});
    const smtp = await startSmtpCatcher();
    stops.push(() => smtp.close());
    const server = await startTestServer({ SMTP_URL: smtp.url, TRUST_PROXY: '127.0.0.1,::1', ...env });
    stops.push(() => server.close());
    const worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url, ...env });
    stops.push(() => worker.close());
    const bffUrl = await startBff(server, stops);
    const shopUrl = await startShop(bffUrl, width, height, stops);
    const browser = await launchSystemChromium();
    stops.push(() => browser.close());
    return { smtp, server, worker, shopUrl, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The BFF as its own process, in front of `server`, once its /health answers. */
async function startBff(server: TestServer, stops: Array<() => Promise<unknown>>): Promise<string> {
  const bffPort = await freePort();
  const bffUrl = `http://127.0.0.1:${bffPort}`;
  const bff = startTsProcess('bff/main.ts', {
    ...server.env.env,
    BFF_PORT: String(bffPort),
    BFF_UPSTREAM_URL: server.url,
    LOG_LEVEL: 'warn',
  });
  stops.push(() => bff.stop());
  await waitFor(
    () =>
      fetch(`${bffUrl}/health`).then(
        (res) => res.status === 200,
        () => false,
      ),
    'the BFF',
    30_000,
  );
  return bffUrl;
}

/** The merchant's page: the element from the BFF with one script tag, the share from the page's query. */
export async function startShop(bffUrl: string, width: number, height: number, stops: Array<() => Promise<unknown>>) {
  const shopPort = await freePort();
  const shopUrl = `http://localhost:${shopPort}`;
  const shop = createServer((request, response) => {
    const [projectId, token] = new URL(request.url ?? '/', shopUrl).searchParams.getAll('share');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
      <script type="module" src="${bffUrl}/element/config-share.js"></script></head>
      <body><h1>A shop</h1><config-share project-id="${projectId}" token="${token}"
        style="display:block;width:${width}px;height:${height}px"></config-share></body></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(shopPort, '127.0.0.1', resolve));
  stops.push(() => new Promise((resolve) => shop.close(resolve)));
  return shopUrl;
}
