import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { pdfText } from '../helpers/pdf-text.js';
import { PRICED_STOOL } from '../helpers/priced-stool.js';
import type { WorkerApp } from '../../worker/app.js';
import { createSharedProject, startTestWorker, submit, waitFor, waitForSteps } from '../worker/submission-fixtures.js';

/**
 * The request's price (docs/api.md, Submit): the server prices every submit itself, keeps the page's
 * figure beside it, and the read, the PDF, the e-mail and the webhooks all show the server's.
 */
let server: TestServer;
let owner: TestPerson;
let smtp: SmtpCatcher;
let worker: WorkerApp;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  server = await startTestServer({ SMTP_URL: smtp.url, RATE_LIMIT_SUBMIT: '1000/1m' });
  owner = await server.person('owner@price.test');
  worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url });
});
afterAll(async () => {
  await worker?.close(5000);
  await server?.close();
  await smtp?.close();
});

const query = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await server.deps.db.$client.query(sql, params)).rows as T[];

const form = (extra: Record<string, unknown> = {}) => ({
  formData: { name: 'Ada Lovelace', email: 'ada@example.com', quantity: 2 },
  configurationSummary: 'Walnut stool',
  ...extra,
});

const readRequest = async (projectId: string, requestId: string) => {
  const res = await fetch(`${server.url}/projects/${projectId}/requests/${requestId}`, { headers: owner.headers });
  expect(res.status).toBe(200);
  return (await res.json()).request;
};

const eventsOf = (requestId: string) =>
  query<{ type: string; data: Record<string, unknown> }>(
    `select type, data from project_events where data->>'requestId' = $1 order by type`,
    [requestId],
  );

const mailOf = (requestId: string) =>
  waitFor(
    async () => smtp.messages.find((m) => m.messageId === `<request-${requestId}@config-share>`),
    `the e-mail of ${requestId}`,
  );

const pdfOf = async (requestId: string) => {
  const [{ pdf_key: key }] = await query<{ pdf_key: string }>('select pdf_key from submissions where id = $1', [
    requestId,
  ]);
  return pdfText(await readFile(path.join(server.env.storageDir, key)));
};

/** (149 + 40) × 2 = 378.00 EUR, of which VAT 19 %: 378 − 378 / 1.19 = 60.35. */
const WALNUT_TIMES_TWO = {
  currency: 'EUR',
  decimals: 2,
  subtotal: 18900,
  total: 37800,
  tax: { label: 'VAT', rate: 0.19, included: true, amount: 6035 },
};

describe('a priced submit', () => {
  let share: { projectId: string; token: string };
  beforeAll(async () => {
    share = await createSharedProject(server, owner, { name: 'Stool', sceneData: PRICED_STOOL });
  });

  it("stores the server's price, not the page's, and shows the mismatch", async () => {
    const res = await submit(
      server.url,
      share,
      form({
        // brass is disabled with walnut; "finish" names no block: neither counts.
        selectedOptions: { seat: 'walnut', legs: 'brass', finish: 'gloss' },
        price: { total: 100, currency: 'EUR' },
      }),
    );
    expect(res.status).toBe(200);
    const { requestId } = await res.json();

    const request = await readRequest(share.projectId, requestId);
    expect(request.price).toMatchObject(WALNUT_TIMES_TWO);
    expect(request.price.lines).toEqual([
      expect.objectContaining({ id: 'base', kind: 'pricing', label: 'Base price', amount: 14900 }),
      expect.objectContaining({ kind: 'option', blockId: 'seat', choiceId: 'walnut', amount: 4000, sku: 'SEAT-WAL' }),
      expect.objectContaining({ id: 'formula.0', kind: 'formula', label: 'Quantity × 2', amount: 18900 }),
    ]);
    expect([...request.price.ignored].sort()).toEqual(['finish', 'legs']);
    expect(request.clientPrice).toEqual({ total: 100, currency: 'EUR' });
    expect(request.priceMismatch).toBe(true);
    // selectedOptions stay as the visitor sent them.
    expect(request.selectedOptions).toEqual({ seat: 'walnut', legs: 'brass', finish: 'gloss' });

    // The list shows the same.
    const list = await (
      await fetch(`${server.url}/projects/${share.projectId}/requests`, { headers: owner.headers })
    ).json();
    expect(list.requests.find((r: { id: string }) => r.id === requestId)).toMatchObject({
      price: { total: 37800 },
      clientPrice: { total: 100, currency: 'EUR' },
      priceMismatch: true,
    });
  });

  it('prints the lines, the total and the VAT in the PDF and the e-mail, with what the visitor saw', async () => {
    const { requestId } = await (
      await submit(
        server.url,
        share,
        form({ selectedOptions: { seat: 'walnut' }, price: { total: 100, currency: 'EUR' } }),
      )
    ).json();
    const steps = await waitForSteps(server.deps.db, requestId);
    expect(steps.pdf.state).toBe('done');
    expect(steps.email.state).toBe('done');

    const text = await pdfOf(requestId);
    for (const expected of [
      'Price',
      'Base price',
      '€149.00',
      'Seat: Walnut',
      '€40.00',
      '€189.00',
      'Total',
      '€378.00',
      'Includes VAT (19%): €60.35',
    ])
      expect(text).toContain(expected);

    const mail = await mailOf(requestId);
    expect(mail.text).toContain('Base price: €149.00');
    expect(mail.text).toContain('Total: €378.00');
    expect(mail.text).toContain('Includes VAT (19%): €60.35');
    expect(mail.text).toContain('The visitor saw €1.00');
  });

  it('carries the price on form.submitted, quote.submitted and quote.updated', async () => {
    const { requestId } = await (
      await submit(
        server.url,
        share,
        form({ selectedOptions: { seat: 'walnut' }, price: { total: 37800, currency: 'EUR' } }),
      )
    ).json();
    const steps = await waitForSteps(server.deps.db, requestId);
    expect(steps.events.state).toBe('done');
    const events = await eventsOf(requestId);
    expect(events.map((e) => e.type)).toEqual(['form.submitted', 'quote.submitted']);
    for (const event of events) expect(event.data.price).toMatchObject({ ...WALNUT_TIMES_TWO, ignored: [] });

    // The page agreed: no mismatch, and the e-mail says nothing about it.
    const request = await readRequest(share.projectId, requestId);
    expect(request.priceMismatch).toBe(false);
    expect((await mailOf(requestId)).text).not.toContain('The visitor saw');

    const patched = await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, {
      method: 'PATCH',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'quoted' }),
    });
    expect(patched.status).toBe(200);
    const updated = (await eventsOf(requestId)).find((e) => e.type === 'quote.updated');
    expect(updated?.data).toMatchObject({ status: 'quoted', price: { total: 37800 } });
  });

  it('prices a submit without selections at the defaults, and one without a page price as not mismatched', async () => {
    const { requestId } = await (
      await submit(server.url, share, form({ formData: { name: 'Ada', email: 'ada@example.com' } }))
    ).json();
    const request = await readRequest(share.projectId, requestId);
    // Oak and steel cost nothing; quantity defaults to 1.
    expect(request.price).toMatchObject({ total: 14900, ignored: [] });
    expect(request.clientPrice).toBeNull();
    expect(request.priceMismatch).toBe(false);
  });

  it('counts a different currency as a mismatch', async () => {
    const { requestId } = await (
      await submit(
        server.url,
        share,
        form({ selectedOptions: { seat: 'walnut' }, price: { total: 37800, currency: 'USD' } }),
      )
    ).json();
    expect(await readRequest(share.projectId, requestId)).toMatchObject({
      price: { total: 37800, currency: 'EUR' },
      clientPrice: { total: 37800, currency: 'USD' },
      priceMismatch: true,
    });
  });

  it('refuses a page total that is no integer within ±10^15 or a bad currency, naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ total: 12.5, currency: 'EUR' }, 'body.price.total'],
      [{ total: 1e16, currency: 'EUR' }, 'body.price.total'],
      [{ total: '100', currency: 'EUR' }, 'body.price.total'],
      [{ total: 100, currency: 'eur' }, 'body.price.currency'],
      [{ total: 100, currency: 'EURO' }, 'body.price.currency'],
      [{ total: 100 }, 'body.price.currency'],
      ['100', 'body.price'],
    ];
    for (const [price, field] of cases) {
      const res = await submit(server.url, share, form({ price }));
      expect(res.status, JSON.stringify(price)).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ success: false, error: 'invalid_request' });
      expect(body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const atLimit = await submit(server.url, share, form({ price: { total: -1e15, currency: null } }));
    expect(atLimit.status).toBe(200);
  });
});

describe('a submit to a project without pricing', () => {
  it('stores no price, keeps the page figure, emits no quote.submitted and prints no Price section', async () => {
    const share = await createSharedProject(server, owner, {
      name: 'Plain chair',
      optionBlocks: [{ id: 'wood', name: 'Wood finish', choices: [{ id: 'oak', label: 'Natural oak' }] }],
      projectSettings: { emailAdminAddress: 'sales@chair.example' },
    });
    const { requestId } = await (
      await submit(server.url, share, {
        formData: { name: 'Ada Lovelace', email: 'ada@example.com' },
        selectedOptions: { wood: 'oak' },
        price: { total: 500, currency: null },
      })
    ).json();
    const steps = await waitForSteps(server.deps.db, requestId);
    expect(steps.events.state).toBe('done');

    expect(await readRequest(share.projectId, requestId)).toMatchObject({
      price: null,
      clientPrice: { total: 500, currency: null },
      priceMismatch: false,
    });
    const events = await eventsOf(requestId);
    expect(events.map((e) => e.type)).toEqual(['form.submitted']);
    expect(events[0].data.price).toBeNull();
    expect(await pdfOf(requestId)).not.toContain('Total');
    expect((await mailOf(requestId)).text).not.toContain('Total:');
  });
});
