import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestPerson, TestServer } from '../helpers/test-server.js';
import type { SmtpCatcher } from '../helpers/smtp-catcher.js';
import { startMerchantShop, type MerchantShop } from '../helpers/merchant-shop.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { pdfText } from '../helpers/pdf-text.js';
import { waitFor, waitForSteps } from '../worker/submission-fixtures.js';
import { ownerCaller, sharedStoolProject } from '../helpers/owner-call.js';

/**
 * The configurator as a merchant's visitor uses it (docs/scene-format.md), from a shop on another origin to the
 * analytics read; the quote and the visitor events are verified by libraries we did not write.
 */
const SECRET = 'whsec_' + Buffer.from('configurator-e2e-secret-32-bytes!').toString('base64');

let shop: MerchantShop;
let smtp: SmtpCatcher;
let server: TestServer;
let shopUrl: string;
let browser: Browser;
let owner: TestPerson;
let receiver: WebhookReceiver;

const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

/** The demo stool's configurator (docs/scene-format.md, The demo stool), with a form the visitor fills. */
const STOOL_SCENE = {
  projectSettings: {
    emailAdminAddress: 'owner@configurator.test',
    pricing: { currency: 'EUR', locale: 'en', tax: { rate: 0.19, included: true, label: 'VAT' } },
  },
  optionBlocks: [
    {
      id: 'seat',
      name: 'Seat',
      type: 'swatch',
      targetObjectId: 'stool',
      choices: [
        { id: 'oak', label: 'Oak', color: '#c8a165', default: true },
        {
          id: 'walnut',
          label: 'Walnut',
          price: 40,
          color: '#5a3a22',
          effects: [{ type: 'material', nodes: ['Seat', 'Backrest'], color: '#5a3a22', roughness: 0.6 }],
        },
      ],
    },
    {
      id: 'legs',
      name: 'Legs',
      type: 'choice',
      targetObjectId: 'stool',
      choices: [
        { id: 'steel', label: 'Steel', default: true, effects: [{ type: 'variant', name: 'steel' }] },
        { id: 'brass', label: 'Brass', price: 25, effects: [{ type: 'variant', name: 'brass' }] },
      ],
    },
  ],
  pricingBlocks: [{ id: 'base', label: 'Base price', price: 149 }],
  pricingFormula: [{ op: 'multiply', field: 'quantity', label: 'Quantity' }],
  formFields: [
    { id: 'name', label: 'Name', type: 'text', required: true },
    { id: 'email', label: 'E-mail', type: 'email', required: true },
    { id: 'quantity', label: 'Quantity', type: 'number', min: 1, max: 20, default: 1 },
  ],
};

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
  shop = await startMerchantShop({ env: { WEBHOOK_ALLOW_INSECURE: '1' }, width: 900, height: 640 });
  ({ smtp, server, shopUrl, browser } = shop);
  owner = await server.person('owner@configurator.test');
}, 180_000);

afterAll(async () => {
  await shop?.close();
  await receiver?.close();
});

describe('a configurator on a merchant page', () => {
  it('prices the options on the server; the owner sees the events, the quote and the analytics', async () => {
    const share = await sharedStoolProject(ownerCall, {
      name: 'Configurator stool',
      sceneData: STOOL_SCENE,
      camera: { position: { x: 0.9, y: 0.8, z: 0.9 }, target: { x: 0, y: 0.25, z: 0 } },
    });
    await ownerCall('PUT', `/projects/${share.projectId}/webhooks/shop`, {
      url: receiver.url,
      secret: SECRET,
      events: ['option.changed', 'price.calculated', 'quote.submitted'],
    });

    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${shopUrl}/?share=${share.projectId}&share=${share.token}`);
    const element = page.locator('config-share');
    await expect.poll(() => element.getAttribute('state'), { timeout: 60_000 }).toBe('ready');

    // The visitor picks walnut and brass legs in the options panel, and orders two.
    await page.locator('config-share [part~="choice"]', { hasText: 'Walnut' }).click();
    await page.locator('config-share [part~="choice"]', { hasText: 'Brass' }).click();
    await expect.poll(() => page.getByRole('radio', { name: /Walnut/ }).isChecked()).toBe(true);
    await page.locator('config-share input[name="quantity"]').fill('2');
    // (149 + 40 + 25) × 2 = 428.00 EUR, shown in the price part.
    await expect
      .poll(() => page.locator('config-share [part~="price"]').innerText(), { timeout: 30_000 })
      .toContain('428.00');

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

    // The request's price is the server's figure, with its lines; the page's agrees.
    const { request } = await ownerCall('GET', `/projects/${share.projectId}/requests/${requestId}`);
    expect(request.selectedOptions).toMatchObject({ seat: 'walnut', legs: 'brass' });
    expect(request.price).toMatchObject({ currency: 'EUR', decimals: 2, subtotal: 21400, total: 42800 });
    expect(request.price.lines.map((line: { id: string; amount: number }) => [line.id, line.amount])).toEqual([
      ['base', 14900],
      ['seat.walnut', 4000],
      ['legs.brass', 2500],
      ['formula.0', 21400],
    ]);
    expect(request.clientPrice).toEqual({ total: 42800, currency: 'EUR' });
    expect(request.priceMismatch).toBe(false);

    // The PDF and the owner's e-mail carry the lines and the total.
    const steps = await waitForSteps(server.deps.db, requestId, 60_000);
    expect(steps.email.state).toBe('done');
    const mail = await waitFor(
      async () => smtp.messages.find((message) => message.messageId === `<request-${requestId}@config-share>`),
      'the owner e-mail',
      30_000,
    );
    const pdf = await pdfText(mail.attachments[0].content);
    expect(pdf).toContain('Seat: Walnut');
    expect(pdf).toContain('€428.00');
    expect(mail.text).toContain('€428.00');

    // The receiver verified every delivery with standardwebhooks and @octokit/webhooks-methods.
    const events = await receiver.waitFor(3, undefined, 60_000).then(() =>
      waitFor(
        async () => {
          const types = new Set(receiver.received.map((delivery) => delivery.json.event));
          return ['option.changed', 'price.calculated', 'quote.submitted'].every((type) => types.has(type))
            ? receiver.received
            : null;
        },
        'option.changed, price.calculated and quote.submitted',
        60_000,
      ),
    );
    expect(events.every((delivery) => delivery.standardValid && delivery.githubValid)).toBe(true);
    const walnut = events.find(
      (delivery) => delivery.json.event === 'option.changed' && delivery.json.data.choiceId === 'walnut',
    );
    expect(walnut?.json.data).toMatchObject({ blockId: 'seat', blockName: 'Seat', choiceLabel: 'Walnut' });
    const quote = events.find((delivery) => delivery.json.event === 'quote.submitted');
    expect(quote?.json.data).toMatchObject({ price: { total: 42800, currency: 'EUR' } });

    // The analytics read counts the view, the session, the option changes and the submission.
    const analytics = await waitFor(
      async () => {
        const body = await ownerCall('GET', `/projects/${share.projectId}/analytics`);
        return body.totals.views >= 1 && body.totals.optionChanges >= 2 && body.totals.submissions === 1 ? body : null;
      },
      'the analytics counters',
      30_000,
    );
    expect(analytics.totals.sessions).toBe(1);
    expect(analytics.conversion).toBe(1);
    expect(analytics.topChoices).toEqual(
      expect.arrayContaining([expect.objectContaining({ blockId: 'seat', choiceId: 'walnut', count: 1 })]),
    );
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 240_000);
});
