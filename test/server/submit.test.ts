import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { blankPng } from '../helpers/blank-png.js';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import type { WorkerApp } from '../../worker/app.js';
import { pdfText } from '../helpers/pdf-text.js';
import {
  createSharedProject,
  dataUrl,
  jpeg,
  png,
  startTestWorker,
  stepRows,
  submit,
  validBody,
  waitFor,
  waitForSteps,
  webp,
  PUBLIC_HEADERS,
} from '../worker/submission-fixtures.js';
import { MAX_SUBMITS_IN_PROGRESS } from '../../server/routes/public-share/submit.js';
import { decodeScreenshot } from '#core/domain/submission-input.js';

/**
 * POST /share/:projectId/:token/submit and the owner request routes (docs/api.md, Submit and Requests), with
 * the worker running in this process against a local SMTP server.
 */
let server: TestServer;
let owner: TestPerson;
let viewer: TestPerson;
let stranger: TestPerson;
let smtp: SmtpCatcher;
let worker: WorkerApp;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  server = await startTestServer({ SMTP_URL: smtp.url, RATE_LIMIT_SUBMIT: '1000/1m' });
  owner = await server.person('owner@submit.test');
  viewer = await server.member(owner.workspaceId, 'viewer@submit.test', 'viewer');
  stranger = await server.person('stranger@submit.test');
  worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url });
});
afterAll(async () => {
  await worker?.close(5000);
  await server?.close();
  await smtp?.close();
});

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });

/** POST .../submit whose body sends its first bytes and then never ends, as a slow or hostile upload would. */
function submitEndless(
  share: { projectId: string; token: string },
  signal: AbortSignal,
  headers: Record<string, string> = {},
) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"formData":{"name":"'));
    },
    pull: () => new Promise<void>(() => {}),
  });
  return fetch(`${server.url}/share/${share.projectId}/${share.token}/submit`, {
    method: 'POST',
    headers: { ...PUBLIC_HEADERS, 'content-type': 'application/json', ...headers },
    body,
    signal,
    duplex: 'half',
  } as RequestInit);
}

const query = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await server.deps.db.$client.query(sql, params)).rows as T[];

describe('submit: the happy path, through every background step', () => {
  it('answers the request id, then stores screenshots, renders and mails the PDF, emits the events', async () => {
    const share = await createSharedProject(server, owner, {
      name: 'Oak Chair Deluxe',
      pricingBlocks: [{ id: 'base', price: 100 }],
      projectSettings: { emailAdminAddress: 'sales@shop.example', brandColor: '#e11d48' },
    });
    const shots = [png(), webp(), jpeg()];
    const res = await submit(
      server.url,
      share,
      validBody({
        screenshots: [dataUrl('image/png', shots[0]), dataUrl('image/webp', shots[1]), dataUrl('image/jpeg', shots[2])],
      }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ success: true, requestId: expect.any(String) });
    const id = body.requestId as string;

    const steps = await waitForSteps(server.deps.db, id);
    expect(Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, v.state]))).toEqual({
      screenshots: 'done',
      pdf: 'done',
      email: 'done',
      events: 'done',
    });

    // Screenshots moved from the database to storage, byte for byte.
    const rows = await query<{ position: number; storage_key: string; data: Buffer | null }>(
      'select position, storage_key, data from submission_screenshots where submission_id = $1 order by position',
      [id],
    );
    expect(rows.map((r) => r.data)).toEqual([null, null, null]);
    expect(rows.map((r) => path.extname(r.storage_key))).toEqual(['.png', '.webp', '.jpg']);
    for (const row of rows)
      expect(await readFile(path.join(server.env.storageDir, row.storage_key))).toEqual(shots[row.position]);

    // The PDF a person would send on: project, request id, answers under their labels, options by name with
    // their price (no currency: plain digits), never the owner's raw number; the summary only in the e-mail.
    const [{ pdf_key: pdfKey }] = await query<{ pdf_key: string }>('select pdf_key from submissions where id = $1', [
      id,
    ]);
    const pdf = await readFile(path.join(server.env.storageDir, pdfKey));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of [
      'Oak Chair Deluxe',
      id,
      'Full name',
      'Ada Lovelace',
      'ada@example.com',
      'Wood finish',
      'Natural oak',
      '+120.00',
      'Screenshot 1',
      'Screenshot 2',
      'Screenshot 3',
    ]) {
      expect(text).toContain(expected);
    }
    // Every screenshot is in the PDF, the WebP too: none is listed instead.
    expect(text).not.toMatch(/Screenshot \d:/);
    expect(text).not.toContain('(120)');
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(3);

    // One e-mail to the owner's address, with the PDF, which holds the screenshots, as its only attachment.
    const [mail] = await smtp.waitForMessages(1);
    expect(smtp.messages).toHaveLength(1);
    expect(mail.to).toEqual(['sales@shop.example']);
    expect(mail.messageId).toBe(`<request-${id}@config-share>`);
    expect(mail.subject).toContain('Oak Chair Deluxe');
    expect(mail.headers.get('reply-to')).toContain('ada@example.com');
    expect(mail.text).toContain('Ada Lovelace');
    expect(mail.text).toContain('Wood finish: Natural oak  +120.00');
    expect(mail.text).toContain('Oak chair with a natural finish');
    const attachedPdf = mail.attachments.find((a) => a.filename === `request-${id}.pdf`);
    expect(attachedPdf?.contentType).toBe('application/pdf');
    expect(attachedPdf?.content).toEqual(pdf);
    expect(mail.attachments).toHaveLength(1);

    // form.submitted, and quote.submitted because the request has a price; once each.
    const events = await query<{ type: string; data: Record<string, unknown> }>(
      'select type, data from project_events where project_id = $1 and type like $2 order by type',
      [share.projectId, '%.submitted'],
    );
    expect(events.map((e) => e.type)).toEqual(['form.submitted', 'quote.submitted']);
    expect(events[0].data).toMatchObject({
      requestId: id,
      projectId: share.projectId,
      formData: validBody().formData,
      selectedOptions: { wood: 'oak' },
      configurationSummary: 'Oak chair with a natural finish',
    });

    // Nothing left for the relay.
    expect(await query('select job_id from outbox where job_id like $1', [`%${id}%`])).toEqual([]);

    // The owner's view: every step done, working signed URLs for the screenshots and the PDF.
    const read = await fetch(`${server.url}/projects/${share.projectId}/requests/${id}`, { headers: owner.headers });
    expect(read.status).toBe(200);
    const { request } = await read.json();
    expect(request).toMatchObject({
      id,
      status: 'new',
      formData: validBody().formData,
      configurationSummary: 'Oak chair with a natural finish',
    });
    for (const step of ['screenshots', 'pdf', 'email', 'events'])
      expect(request.steps[step]).toMatchObject({ state: 'done', attempts: 1 });
    expect(request.screenshots).toHaveLength(3);
    const shot = await fetch(request.screenshots[0]);
    expect(shot.status).toBe(200);
    expect(Buffer.from(await shot.arrayBuffer())).toEqual(shots[0]);
    const pdfRes = await fetch(request.pdfUrl);
    expect(pdfRes.status).toBe(200);
    expect(pdfRes.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdfRes.arrayBuffer())).toEqual(pdf);
    expect(new URL(request.pdfUrl).searchParams.get('sig')).toBeTruthy();
  });

  it('emits form.submitted only without pricing; mails the workspace owner when no address is set', async () => {
    const share = await createSharedProject(server, owner, {
      projectSettings: {},
      optionBlocks: [{ id: 'wood', name: 'Wood finish', choices: [{ id: 'oak', label: 'Natural oak' }] }],
    });
    const res = await submit(server.url, share, validBody());
    const { requestId } = await res.json();
    const steps = await waitForSteps(server.deps.db, requestId);
    expect(steps.email).toMatchObject({ state: 'done', last_error: expect.stringContaining("workspace's owners") });
    const events = await query<{ type: string }>(
      'select type from project_events where project_id = $1 and type like $2',
      [share.projectId, '%.submitted'],
    );
    expect(events.map((e) => e.type)).toEqual(['form.submitted']);
    const mails = smtp.messages.filter((m) => m.messageId === `<request-${requestId}@config-share>`);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(['owner@submit.test']);
    const { request } = await (
      await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, { headers: owner.headers })
    ).json();
    expect(request.steps.email).toMatchObject({ state: 'done', note: expect.stringContaining('emailAdminAddress') });
    expect(request.screenshots).toEqual([]);
  });

  it("says why the owners got the mail when the project's address is not valid", async () => {
    const share = await createSharedProject(server, owner, { projectSettings: { emailAdminAddress: 'sales at shop' } });
    const { requestId } = await (await submit(server.url, share, validBody())).json();
    await waitForSteps(server.deps.db, requestId);
    const { request } = await (
      await fetch(`${server.url}/projects/${share.projectId}/requests/${requestId}`, { headers: owner.headers })
    ).json();
    expect(request.steps.email).toMatchObject({
      state: 'done',
      note: "Sent to the workspace's owners: the project's emailAdminAddress is not a valid e-mail address.",
    });
    expect(smtp.messages.filter((m) => m.messageId === `<request-${requestId}@config-share>`).map((m) => m.to)).toEqual(
      [['owner@submit.test']],
    );
  });

  it('notes, rather than fails, when nobody has an e-mail address', async () => {
    const share = await createSharedProject(server, owner, { projectSettings: {} });
    await query(
      'update people set email = null where id in (select person_id from memberships where workspace_id = $1 and ' +
        'role = $2)',
      [owner.workspaceId, 'owner'],
    );
    try {
      const { requestId } = await (await submit(server.url, share, validBody())).json();
      const steps = await waitForSteps(server.deps.db, requestId);
      expect(steps.email).toMatchObject({ state: 'done', last_error: expect.stringContaining('nothing was sent') });
      expect(smtp.messages.filter((m) => m.messageId === `<request-${requestId}@config-share>`)).toEqual([]);
    } finally {
      await query('update people set email = $1 where id = $2', ['owner@submit.test', owner.personId]);
    }
  });
});

describe('submit: checks and validation', () => {
  let share: { projectId: string; token: string };
  beforeAll(async () => {
    share = await createSharedProject(server, owner);
  });

  const expectInvalid = async (res: Response, field: string) => {
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, error: 'invalid_request' });
    expect(body.details.map((d: { field: string }) => d.field)).toContain(field);
    return body;
  };

  it('needs formData', async () => {
    await expectInvalid(await submit(server.url, share, { selectedOptions: {} }), 'body.formData');
    await expectInvalid(await submit(server.url, share, { formData: ['not', 'an', 'object'] }), 'body.formData');
  });

  it('names each missing required form field', async () => {
    const res = await submit(server.url, share, { formData: { name: '   ', notes: 'hi' } });
    const body = await expectInvalid(res, 'body.formData.name');
    expect(body.details.map((d: { field: string }) => d.field)).toEqual(['body.formData.name', 'body.formData.email']);
    expect(body.message).toContain('name');
    expect(body.message).toContain('email');
  });

  it('refuses over five screenshots, other types, bytes that are not what they claim, oversized ones', async () => {
    const six = Array.from({ length: 6 }, () => dataUrl('image/png', png()));
    await expectInvalid(await submit(server.url, share, validBody({ screenshots: six })), 'body.screenshots');
    const gif = await expectInvalid(
      await submit(server.url, share, validBody({ screenshots: [dataUrl('image/gif', Buffer.from('GIF89a...'))] })),
      'body.screenshots.0',
    );
    expect(gif.message).toContain('image/gif');
    await expectInvalid(
      await submit(
        server.url,
        share,
        validBody({ screenshots: [dataUrl('image/png', png()), dataUrl('image/png', jpeg())] }),
      ),
      'body.screenshots.1',
    );
    await expectInvalid(
      await submit(server.url, share, validBody({ screenshots: ['https://example.com/shot.png'] })),
      'body.screenshots.0',
    );
    // 5 MB as docs/api.md counts it: 5,000,000 bytes.
    const big = Buffer.alloc(5_000_000 + 1);
    png().copy(big);
    const oversized = await expectInvalid(
      await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', big)] })),
      'body.screenshots.0',
    );
    expect(oversized.message).toContain('5 MB');
  });

  it('refuses screenshots past the pixel cap or without a readable header, naming the screenshot', async () => {
    // 8000 × 8000: a few KB here, 256 MB of pixels for a decoder.
    const huge = blankPng(8000, 8000);
    expect(huge.length).toBeLessThan(64 * 1024);
    const body = await expectInvalid(
      await submit(
        server.url,
        share,
        validBody({ screenshots: [dataUrl('image/png', png()), dataUrl('image/png', huge)] }),
      ),
      'body.screenshots.1',
    );
    expect(body.message).toContain('8000 × 8000');
    // One side too long, within the total.
    await expectInvalid(
      await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', blankPng(8193, 1))] })),
      'body.screenshots.0',
    );
    // The signature alone, without the IHDR chunk that gives the size.
    await expectInvalid(
      await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', png().subarray(0, 12))] })),
      'body.screenshots.0',
    );
    // A JPEG header cut before its frame header.
    await expectInvalid(
      await submit(server.url, share, validBody({ screenshots: [dataUrl('image/jpeg', jpeg().subarray(0, 3))] })),
      'body.screenshots.0',
    );
    // Nothing was stored.
    expect(await query('select id from submissions where project_id = $1', [share.projectId])).toEqual([]);

    const longest = await submit(
      server.url,
      share,
      validBody({ screenshots: [dataUrl('image/png', blankPng(8192, 1))] }),
    );
    expect(longest.status).toBe(200);
  });

  it('draws the pixel cap at 8192 per side and 4096 × 4096 in all', () => {
    const decode = (width: number, height: number) => () =>
      decodeScreenshot(dataUrl('image/png', blankPng(width, height)), 2);
    expect(decode(4096, 4096)().data.length).toBeGreaterThan(0);
    expect(decode(8192, 2048)().mimeType).toBe('image/png');
    expect(decode(4096, 4097)).toThrow(/body\.screenshots\.2 is 4096 × 4097 pixels/);
    expect(decode(8193, 1)).toThrow(/body\.screenshots\.2/);
    expect(decode(2049, 8192)).toThrow(/body\.screenshots\.2/);
  });

  it('accepts a screenshot of exactly 5 MB', async () => {
    const max = Buffer.alloc(5_000_000);
    png().copy(max);
    const res = await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', max)] }));
    expect(res.status).toBe(200);
  });

  it('refuses a summary over 20,000 characters and keeps one at the limit', async () => {
    await expectInvalid(
      await submit(server.url, share, validBody({ configurationSummary: 'x'.repeat(20_001) })),
      'body.configurationSummary',
    );
    const ok = await submit(server.url, share, validBody({ configurationSummary: 'x'.repeat(20_000) }));
    expect(ok.status).toBe(200);
    const { requestId } = await ok.json();
    const [row] = await query<{ configuration_summary: string }>(
      'select configuration_summary from submissions where id = $1',
      [requestId],
    );
    expect(row.configuration_summary).toHaveLength(20_000);
  });

  it('refuses a body past the 36 MiB limit with 413', async () => {
    const res = await submit(server.url, share, JSON.stringify(validBody({ padding: 'x'.repeat(37 * 1024 * 1024) })));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error: 'payload_too_large' });
  });

  it('runs the share checks before the body: public key 401, unknown share 404, disabled share 404', async () => {
    const noKey = await fetch(`${server.url}/share/${share.projectId}/${share.token}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error: 'invalid_api_key' });
    // An invalid body to a wrong token is the 404, not the 400.
    const wrongToken = await submit(server.url, { ...share, token: 'A'.repeat(43) }, { nothing: true });
    expect(wrongToken.status).toBe(404);
    const other = await createSharedProject(server, owner);
    await fetch(`${server.url}/projects/${other.projectId}/share`, {
      method: 'PUT',
      headers: json(owner.headers),
      body: JSON.stringify({ isEnabled: false }),
    });
    expect((await submit(server.url, other, validBody())).status).toBe(404);
  });

  it('refuses a wrong token, password or missing password before reading the body', async () => {
    const locked = await createSharedProject(server, owner, { password: 'open sesame' });
    const uploads = new AbortController();
    try {
      // The bodies never end: an answer can only come from checks that do not wait for them.
      const wrongToken = await submitEndless({ ...share, token: 'A'.repeat(43) }, uploads.signal);
      expect(wrongToken.status).toBe(404);
      expect(await wrongToken.json()).toMatchObject({ success: false, error: 'not_found' });
      // And the server hangs up rather than drain the rest.
      expect(wrongToken.headers.get('connection')).toBe('close');
      const noPassword = await submitEndless(locked, uploads.signal);
      expect(noPassword.status).toBe(401);
      expect(await noPassword.json()).toMatchObject({ error: 'password_required' });
      const wrongPassword = await submitEndless(locked, uploads.signal, { 'x-share-password': 'nope' });
      expect(wrongPassword.status).toBe(401);
      expect(await wrongPassword.json()).toMatchObject({ error: 'invalid_password' });
    } finally {
      uploads.abort();
    }
  });

  it(`takes ${MAX_SUBMITS_IN_PROGRESS} of the largest submits at once, then 503; ordinary ones pass`, async () => {
    const busy = await createSharedProject(server, owner);
    const uploads = new AbortController();
    const held: Array<Promise<unknown>> = [];
    // An endless upload that lost its slot to a probe is replaced, until all of them hold one.
    const hold = () => {
      held.push(
        submitEndless(busy, uploads.signal).then(
          (res) => (res.status === 503 ? hold() : undefined),
          () => undefined,
        ),
      );
    };
    for (let i = 0; i < MAX_SUBMITS_IN_PROGRESS; i++) hold();
    // A large body that fails validation: a 400 shows there was room for it, and stores nothing.
    const probe = () => submit(server.url, busy, { formData: 'not an object', padding: 'x'.repeat(2 * 1024 * 1024) });
    try {
      const refused = await waitFor(async () => {
        const res = await probe();
        return res.status === 503 ? res : null;
      }, 'the submit slots to fill up');
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toMatchObject({ success: false, error: 'unavailable', retryAfter: 1 });
      // The share checks still come first: a wrong token is the 404.
      expect((await submit(server.url, { ...busy, token: 'A'.repeat(43) }, validBody())).status).toBe(404);
      // Ordinary form submits are not counted: the stalled uploads do not keep them out.
      const crowd = await Promise.all(
        Array.from({ length: 3 * MAX_SUBMITS_IN_PROGRESS }, () => submit(server.url, busy, validBody())),
      );
      expect(crowd.map((res) => res.status)).toEqual(crowd.map(() => 200));
    } finally {
      uploads.abort();
      await Promise.all(held);
    }
    // The uploads went away: their slots are free again.
    await waitFor(async () => (await probe()).status === 400, 'a free submit slot');
    expect((await submit(server.url, busy, validBody())).status).toBe(200);
  });

  it('needs X-Share-Password on a password-protected share', async () => {
    const locked = await createSharedProject(server, owner, { password: 'open sesame' });
    const missing = await submit(server.url, locked, validBody());
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: 'password_required' });
    const wrong = await submit(server.url, locked, validBody(), { 'x-share-password': 'nope' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_password' });
    const ok = await submit(server.url, locked, validBody(), { 'x-share-password': 'open sesame' });
    expect(ok.status).toBe(200);
    expect(await query('select id from submissions where project_id = $1', [locked.projectId])).toHaveLength(1);
  });

  it('commits the request with its screenshots, pending steps and outbox rows before answering', async () => {
    const res = await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', png())] }));
    const { requestId } = await res.json();
    const [row] = await query<{ form_data: unknown; selected_options: unknown; workspace_id: string; status: string }>(
      'select * from submissions where id = $1',
      [requestId],
    );
    expect(row).toMatchObject({
      form_data: validBody().formData,
      selected_options: { wood: 'oak' },
      workspace_id: owner.workspaceId,
      status: 'new',
    });
    expect(Object.keys(await stepRows(server.deps.db, requestId)).sort()).toEqual([
      'email',
      'events',
      'pdf',
      'screenshots',
    ]);
    await waitForSteps(server.deps.db, requestId);
  });
});

describe('submit: Idempotency-Key', () => {
  it('answers the first request id for a repeated key and stores one request', async () => {
    const share = await createSharedProject(server, owner);
    const key = `order-${Date.now()}`;
    const first = await (await submit(server.url, share, validBody(), { 'idempotency-key': key })).json();
    // Parallel retries of the same key, as a flaky network would send them.
    const again = await Promise.all(
      [1, 2, 3].map(() => submit(server.url, share, validBody(), { 'idempotency-key': key }).then((r) => r.json())),
    );
    for (const body of again) expect(body).toEqual({ success: true, requestId: first.requestId });
    expect(await query('select id from submissions where project_id = $1', [share.projectId])).toHaveLength(1);

    // Another key, or no key, is another request; the same key on another project too.
    const other = await (await submit(server.url, share, validBody(), { 'idempotency-key': `${key}-2` })).json();
    expect(other.requestId).not.toBe(first.requestId);
    const elsewhere = await createSharedProject(server, owner);
    const third = await (await submit(server.url, elsewhere, validBody(), { 'idempotency-key': key })).json();
    expect(third.requestId).not.toBe(first.requestId);
  });

  it('forgets a key after 24 hours', async () => {
    const share = await createSharedProject(server, owner);
    const first = await (await submit(server.url, share, validBody(), { 'idempotency-key': 'old-key' })).json();
    await query(`update submissions set created_at = now() - interval '25 hours' where id = $1`, [first.requestId]);
    const later = await (await submit(server.url, share, validBody(), { 'idempotency-key': 'old-key' })).json();
    expect(later.requestId).not.toBe(first.requestId);
    expect(await query('select id from submissions where project_id = $1', [share.projectId])).toHaveLength(2);
  });

  it('refuses a key longer than 200 characters', async () => {
    const share = await createSharedProject(server, owner);
    const res = await submit(server.url, share, validBody(), { 'idempotency-key': 'k'.repeat(201) });
    expect(res.status).toBe(400);
    expect((await res.json()).details[0].field).toBe('headers.idempotency-key');
  });
});

describe('submit: rate limit', () => {
  it('answers 429 with Retry-After past the per-IP limit', async () => {
    const limited = await startTestServer({ RATE_LIMIT_SUBMIT: '2/1m' });
    try {
      const person = await limited.person('owner@rate.test');
      const share = await createSharedProject(limited, person);
      expect((await submit(limited.url, share, validBody())).status).toBe(200);
      expect((await submit(limited.url, share, validBody())).status).toBe(200);
      const third = await submit(limited.url, share, validBody());
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await third.json()).toMatchObject({ success: false, error: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});

describe('owner requests', () => {
  let share: { projectId: string; token: string };
  const ids: string[] = [];
  beforeAll(async () => {
    share = await createSharedProject(server, owner, { projectSettings: {} });
    for (let i = 0; i < 3; i++) {
      const body = await (
        await submit(
          server.url,
          share,
          validBody({
            formData: { name: `Visitor ${i}`, email: `v${i}@example.com` },
            screenshots: [dataUrl('image/png', png())],
          }),
        )
      ).json();
      ids.push(body.requestId);
    }
    for (const id of ids) await waitForSteps(server.deps.db, id);
  });

  it('lists newest first with cursor pagination', async () => {
    const first = await (
      await fetch(`${server.url}/projects/${share.projectId}/requests?limit=2`, { headers: owner.headers })
    ).json();
    expect(first.requests.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    expect(first.requests[0]).toMatchObject({
      formData: { name: 'Visitor 2' },
      screenshotCount: 1,
      steps: { email: { state: 'done' } },
    });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (
      await fetch(`${server.url}/projects/${share.projectId}/requests?limit=2&cursor=${first.nextCursor}`, {
        headers: owner.headers,
      })
    ).json();
    expect(second.requests.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
  });

  it('lets a viewer read but not change, and hides the requests from another workspace', async () => {
    const route = `/projects/${share.projectId}/requests/${ids[0]}`;
    expect(
      (await fetch(`${server.url}/projects/${share.projectId}/requests`, { headers: viewer.headers })).status,
    ).toBe(200);
    expect((await fetch(`${server.url}${route}`, { headers: viewer.headers })).status).toBe(200);
    const patch = await fetch(`${server.url}${route}`, {
      method: 'PATCH',
      headers: json(viewer.headers),
      body: JSON.stringify({ status: 'won' }),
    });
    expect(patch.status).toBe(403);
    expect(await patch.json()).toMatchObject({ error: 'forbidden' });
    expect((await fetch(`${server.url}${route}`, { method: 'DELETE', headers: viewer.headers })).status).toBe(403);

    expect(
      (await fetch(`${server.url}/projects/${share.projectId}/requests`, { headers: stranger.headers })).status,
    ).toBe(404);
    expect((await fetch(`${server.url}${route}`, { headers: stranger.headers })).status).toBe(404);
    expect(
      (
        await fetch(`${server.url}${route}`, {
          method: 'PATCH',
          headers: json(stranger.headers),
          body: JSON.stringify({ status: 'won' }),
        })
      ).status,
    ).toBe(404);
    expect((await fetch(`${server.url}${route}`, { method: 'DELETE', headers: stranger.headers })).status).toBe(404);
    expect((await fetch(`${server.url}/projects/${share.projectId}/requests`)).status).toBe(401);
    // Nothing changed.
    const [row] = await query<{ status: string }>('select status from submissions where id = $1', [ids[0]]);
    expect(row.status).toBe('new');
  });

  it('sets the status and emits quote.updated', async () => {
    const route = `/projects/${share.projectId}/requests/${ids[1]}`;
    const res = await fetch(`${server.url}${route}`, {
      method: 'PATCH',
      headers: json(owner.headers),
      body: JSON.stringify({ status: 'quoted' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).request).toMatchObject({ id: ids[1], status: 'quoted' });
    expect((await (await fetch(`${server.url}${route}`, { headers: owner.headers })).json()).request.status).toBe(
      'quoted',
    );
    // The same status again changes nothing and emits nothing.
    const again = await fetch(`${server.url}${route}`, {
      method: 'PATCH',
      headers: json(owner.headers),
      body: JSON.stringify({ status: 'quoted' }),
    });
    expect(again.status).toBe(200);
    const events = await query<{ data: Record<string, unknown> }>(
      `select data from project_events where project_id = $1 and type = 'quote.updated'`,
      [share.projectId],
    );
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ requestId: ids[1], status: 'quoted', previousStatus: 'new' }),
    ]);

    const bad = await fetch(`${server.url}${route}`, {
      method: 'PATCH',
      headers: json(owner.headers),
      body: JSON.stringify({ status: 'teleported' }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details[0].field).toContain('body.status');
  });

  it('deletes a request and its files, emitting quote.deleted', async () => {
    const route = `/projects/${share.projectId}/requests/${ids[0]}`;
    const { request } = await (await fetch(`${server.url}${route}`, { headers: owner.headers })).json();
    const keys = await query<{ storage_key: string }>(
      'select storage_key from submission_screenshots where submission_id = $1',
      [ids[0]],
    );
    const [{ pdf_key: pdfKey }] = await query<{ pdf_key: string }>('select pdf_key from submissions where id = $1', [
      ids[0],
    ]);
    const files = [...keys.map((k) => k.storage_key), pdfKey].map((k) => path.join(server.env.storageDir, k));
    for (const file of files) await expect(readFile(file)).resolves.toBeInstanceOf(Buffer);

    const res = await fetch(`${server.url}${route}`, { method: 'DELETE', headers: owner.headers });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect((await fetch(`${server.url}${route}`, { headers: owner.headers })).status).toBe(404);
    expect((await fetch(`${server.url}${route}`, { method: 'DELETE', headers: owner.headers })).status).toBe(404);
    for (const file of files) await expect(readFile(file)).rejects.toThrow();
    expect((await fetch(request.pdfUrl)).status).toBe(404);
    const events = await query<{ data: Record<string, unknown> }>(
      `select data from project_events where project_id = $1 and type = 'quote.deleted'`,
      [share.projectId],
    );
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ requestId: ids[0] })]);
  });

  it('answers 404 for an unknown request and 400 for a malformed id', async () => {
    expect(
      (
        await fetch(`${server.url}/projects/${share.projectId}/requests/00000000-0000-4000-8000-000000000000`, {
          headers: owner.headers,
        })
      ).status,
    ).toBe(404);
    expect(
      (await fetch(`${server.url}/projects/${share.projectId}/requests/nope`, { headers: owner.headers })).status,
    ).toBe(400);
  });
});

describe('deleting a project', () => {
  it('removes its requests and their stored screenshots and PDF', async () => {
    const share = await createSharedProject(server, owner);
    const res = await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', png())] }));
    const { requestId } = await res.json();
    await waitForSteps(server.deps.db, requestId);
    const [{ pdf_key: pdfKey }] = await query<{ pdf_key: string }>('select pdf_key from submissions where id = $1', [
      requestId,
    ]);
    const [{ storage_key: shotKey }] = await query<{ storage_key: string }>(
      'select storage_key from submission_screenshots where submission_id = $1',
      [requestId],
    );
    const exists = async (key: string) => (await server.deps.storage.head(key)) !== null;
    expect(await exists(pdfKey)).toBe(true);
    expect(await exists(shotKey)).toBe(true);

    expect(
      (await fetch(`${server.url}/projects/${share.projectId}`, { method: 'DELETE', headers: owner.headers })).status,
    ).toBe(200);
    expect(await query('select id from submissions where id = $1', [requestId])).toEqual([]);
    expect(await exists(pdfKey)).toBe(false);
    expect(await exists(shotKey)).toBe(false);
  });
});

describe('a screenshot with corrupt image data', () => {
  it('neither crashes the worker nor costs the owner the PDF', async () => {
    // A valid PNG signature and header whose compressed data fails its checksum.
    const corrupt = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d' +
        '4944415478da63f8cfc0f01f0005000201ff5ea1ab0000000049454e44ae426082',
      'hex',
    );
    const share = await createSharedProject(server, owner, {
      projectSettings: { emailAdminAddress: 'corrupt@shop.example' },
    });
    const res = await submit(server.url, share, validBody({ screenshots: [dataUrl('image/png', corrupt)] }));
    expect(res.status).toBe(200);
    const { requestId } = await res.json();
    const steps = await waitForSteps(server.deps.db, requestId);
    expect(Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, v.state]))).toEqual({
      screenshots: 'done',
      pdf: 'done',
      email: 'done',
      events: 'done',
    });
    const [{ pdf_key: pdfKey }] = await query<{ pdf_key: string }>('select pdf_key from submissions where id = $1', [
      requestId,
    ]);
    const text = await pdfText(await readFile(path.join(server.env.storageDir, pdfKey)));
    expect(text).toContain(requestId);
    // The worker is still alive: a later request goes through too.
    const next = await (await submit(server.url, share, validBody())).json();
    expect((await waitForSteps(server.deps.db, next.requestId)).pdf.state).toBe('done');
  });
});
