import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import type { TestPerson, TestServer } from '../helpers/test-server.js';
import type { SmtpCatcher } from '../helpers/smtp-catcher.js';
import { startMerchantShop, type MerchantShop } from '../helpers/merchant-shop.js';
import { waitFor, waitForSteps } from '../worker/submission-fixtures.js';
import { ownerCaller, sharedStoolProject } from '../helpers/owner-call.js';

/**
 * The whole product as a merchant uses it: one script tag on a shop of its own origin, through the BFF and the real
 * server, to the database, the worker and the owner's e-mail.
 */
let shop: MerchantShop;
let smtp: SmtpCatcher;
let server: TestServer;
let shopUrl: string;
let browser: Browser;
let owner: TestPerson;

const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

/** A shared project with the demo stool as its one model and a two-field form. */
async function sharedStool() {
  return sharedStoolProject(ownerCall, {
    name: 'E2E stool',
    sceneData: {
      projectSettings: { emailAdminAddress: 'owner@e2e.test' },
      formFields: [
        { id: 'name', label: 'Name', type: 'text', required: true },
        { id: 'email', label: 'E-mail', type: 'email', required: true },
      ],
    },
    camera: { position: { x: 0.9, y: 0.8, z: 0.9 }, target: { x: 0, y: 0.25, z: 0 } },
  });
}

beforeAll(async () => {
  shop = await startMerchantShop({ width: 480, height: 480 });
  ({ smtp, server, shopUrl, browser } = shop);
  owner = await server.person('owner@e2e.test');
}, 180_000);

afterAll(() => shop?.close());

describe('a merchant page on another origin', () => {
  it('loads the element from the BFF, renders the model, delivers a submit to the database and owner', async () => {
    const share = await sharedStool();
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${shopUrl}/?share=${share.projectId}&share=${share.token}`);

    const element = page.locator('config-share');
    await expect.poll(() => element.getAttribute('state'), { timeout: 60_000 }).toBe('ready');

    // A non-blank canvas: the rendered stool, not one flat colour.
    const screenshot = await waitFor(
      async () => {
        const png: string = await element.evaluate((node: any) => node.screenshot());
        const { channels } = await sharp(Buffer.from(png.split(',')[1], 'base64')).stats();
        return channels.slice(0, 3).some((channel) => channel.stdev > 1) ? png : null;
      },
      'a rendered frame',
      60_000,
    );
    expect(screenshot.startsWith('data:image/png;base64,')).toBe(true);

    // The visitor fills the form in the element's shadow root (Playwright's locators pierce it) and submits.
    await page.locator('config-share input[name="name"]').fill('Ada Lovelace');
    await page.locator('config-share input[name="email"]').fill('ada@example.com');
    const submitted = element.evaluate(
      (node: any) =>
        new Promise<string>((resolve) =>
          node.addEventListener('config-share-submit', (event: any) => resolve(event.detail.requestId), { once: true }),
        ),
    );
    await page.locator('config-share [part~="submit-button"]').click();
    const requestId = await submitted;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const { rows } = await server.deps.db.$client.query('select project_id, form_data from submissions where id = $1', [
      requestId,
    ]);
    expect(rows).toEqual([
      {
        project_id: share.projectId,
        form_data: expect.objectContaining({ name: 'Ada Lovelace', email: 'ada@example.com' }),
      },
    ]);
    const steps = await waitForSteps(server.deps.db, requestId, 60_000);
    expect(steps.email.state).toBe('done');
    const mail = await waitFor(
      async () => smtp.messages.find((message) => message.messageId === `<request-${requestId}@config-share>`),
      'the owner e-mail',
      30_000,
    );
    expect(mail.to).toEqual(['owner@e2e.test']);
    // The PDF holds the screenshot the element took of its canvas.
    expect(mail.attachments.map((part) => part.contentType)).toEqual(['application/pdf']);
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 180_000);
});
