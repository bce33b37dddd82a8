import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startTestBff, type TestBff } from '../helpers/bff-app.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { ownerCaller } from '../helpers/owner-call.js';
import { PUBLIC_HEADERS, startTestWorker } from '../worker/submission-fixtures.js';
import type { WorkerApp } from '../../worker/app.js';
import { STOOL_SCENE } from '../helpers/stool-scene.js';
import { hashPassword } from '#core/platform/password-hashing.js';
import { VISITOR_EVENT_TYPES } from '#core/wire/configurator/index.js';
import { serializeDeliveryBody } from '#core/domain/webhooks/event-types.js';

/**
 * POST /share/:projectId/:token/events end to end (docs/api.md, Visitor events): the API, the BFF, the worker
 * delivering to a receiver that verifies every signature with `standardwebhooks`, and the events and day counters
 * in Postgres.
 */
const SECRET = 'whsec_' + Buffer.alloc(32, 9).toString('base64');
let server: TestServer;
let bff: TestBff;
let worker: WorkerApp;
let receiver: WebhookReceiver;
let owner: TestPerson;
const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_INSECURE: '1', TRUST_PROXY: '127.0.0.1', RATE_LIMIT_EVENTS: '50/5m' });
  owner = await server.person('owner@events.test');
  receiver = await startWebhookReceiver(SECRET);
  worker = await startTestWorker(server.env.env, { WEBHOOK_ALLOW_INSECURE: '1' });
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url });
});
afterAll(async () => {
  await bff?.close();
  await receiver?.close();
  await worker?.close(5000);
  await server?.close();
});

interface Share {
  projectId: string;
  token: string;
}

/** The stool project, shared with `settings`, in the owner's workspace unless another caller is given. */
async function stoolShare(settings: Record<string, unknown> = {}, call = ownerCall): Promise<Share> {
  const { project } = await call('POST', '/projects', {
    name: 'Stool',
    type: 'configurator',
    data: { models: [], sceneData: STOOL_SCENE },
  });
  const { settings: saved } = await call('PUT', `/projects/${project.id}/share`, { isEnabled: true, ...settings });
  return { projectId: project.id, token: saved.shareToken };
}

/** A client address of its own per call or test: each has a budget of its own. */
let clients = 0;
/** An IPv6 /64 of its own (the budget keys IPv6 clients by /64). */
const newClient = () => `2001:db8:${(++clients).toString(16)}::1`;
const sessionId = () => randomBytes(16).toString('base64url');
const now = () => new Date().toISOString();

interface SendOptions {
  headers?: Record<string, string>;
  /** Sent as is instead of the JSON of `body`. */
  raw?: string;
  base?: string;
  ip?: string;
  contentType?: string;
}

function send(share: Share, body: unknown, options: SendOptions = {}) {
  const base = options.base ?? server.url;
  const keyHeaders = base === server.url ? PUBLIC_HEADERS : {};
  return fetch(`${base}/share/${share.projectId}/${share.token}/events`, {
    method: 'POST',
    headers: {
      ...keyHeaders,
      'content-type': options.contentType ?? 'application/json',
      'x-forwarded-for': options.ip ?? newClient(),
      ...options.headers,
    },
    body: options.raw ?? JSON.stringify(body),
  });
}

const view = () => ({ type: 'view', at: now(), data: {} });
const optionChanged = (choiceId = 'walnut', previousChoiceId = 'oak') => ({
  type: 'option.changed',
  at: now(),
  data: { blockId: 'seat', choiceId, previousChoiceId, source: 'visitor', options: { seat: choiceId, legs: 'steel' } },
});

async function counters(projectId: string) {
  const { rows } = await server.deps.db.$client.query(
    `select coalesce(sum(views), 0)::int as views, coalesce(sum(sessions), 0)::int as sessions,
            coalesce(sum(option_changes), 0)::int as "optionChanges"
     from visitor_day_counters where project_id = $1`,
    [projectId],
  );
  return rows[0] as { views: number; sessions: number; optionChanges: number };
}

async function storedEvents(projectId: string) {
  const { rows } = await server.deps.db.$client.query(
    `select type, data, created_at from project_events
     where project_id = $1 and type = any ($2) order by created_at`,
    [projectId, VISITOR_EVENT_TYPES],
  );
  return rows as Array<{ type: string; data: Record<string, unknown>; created_at: Date }>;
}

describe('recording', () => {
  it('records accepted events, counts them on their day, and answers 202 with what it left out', async () => {
    const share = await stoolShare();
    const session = sessionId();
    const res = await send(share, {
      sessionId: session,
      events: [
        view(),
        optionChanged(),
        { type: 'page.scrolled', at: now(), data: {} },
        { ...optionChanged(), data: { ...optionChanged().data, blockId: 'colour' } },
        { ...optionChanged(), data: { ...optionChanged().data, choiceId: 'teak' } },
        { type: 'animation.triggered', at: now(), data: { animationId: 'spin', trigger: 'button' } },
        { ...optionChanged(), data: { ...optionChanged().data, source: 'robot' } },
        { type: 'animation.triggered', at: now(), data: { animationId: 'turn', trigger: 'button' } },
        { type: 'ar.opened', at: now(), data: {} },
        { type: 'configuration.saved', at: now(), data: {} },
      ],
    });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, accepted: 5 });
    expect(body.rejected.map((r: { index: number; error: string }) => [r.index, r.error])).toEqual([
      [2, 'unknown_type'],
      [3, 'unknown_block'],
      [4, 'unknown_choice'],
      [5, 'unknown_animation'],
      [6, 'invalid_event'],
    ]);
    for (const rejection of body.rejected) expect(rejection.message).toEqual(expect.any(String));

    const stored = await storedEvents(share.projectId);
    expect(stored.map((e) => e.type).sort()).toEqual(
      ['animation.triggered', 'ar.opened', 'configuration.saved', 'option.changed', 'view'].sort(),
    );
    const changed = stored.find((e) => e.type === 'option.changed')!;
    expect(changed.data).toMatchObject({ sessionId: session, blockName: 'Seat', choiceLabel: 'Walnut' });
    // Only the listed fields: no address, no user agent.
    expect(Object.keys(changed.data).sort()).toEqual(
      [
        'at',
        'blockId',
        'blockName',
        'choiceId',
        'choiceLabel',
        'options',
        'previousChoiceId',
        'sessionId',
        'source',
      ].sort(),
    );
    expect(JSON.stringify(stored)).not.toContain('2001:db8');

    // A second call of the same session on the same day is the same session.
    expect((await send(share, { sessionId: session, events: [view()] })).status).toBe(202);
    expect(await counters(share.projectId)).toEqual({ views: 2, sessions: 1, optionChanges: 1 });
  });

  it('keeps a plausible `at` and replaces one from too long ago or from the future by the receive time', async () => {
    const share = await stoolShare();
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const daysAgo = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();
    const future = new Date(Date.now() + 3600_000).toISOString();
    const res = await send(share, {
      sessionId: sessionId(),
      events: [
        { type: 'view', at: hourAgo, data: {} },
        { type: 'ar.opened', at: daysAgo, data: {} },
        { type: 'configuration.saved', at: future, data: {} },
      ],
    });
    expect(res.status).toBe(202);
    const stored = await storedEvents(share.projectId);
    const at = (type: string) => stored.find((e) => e.type === type)!;
    expect(at('view').data.at).toBe(hourAgo);
    for (const type of ['ar.opened', 'configuration.saved'])
      expect(at(type).data.at).toBe(at(type).created_at.toISOString());
  });

  it('takes a text/plain JSON body, as sendBeacon sends it, directly and through the BFF', async () => {
    const share = await stoolShare();
    const body = JSON.stringify({ sessionId: sessionId(), events: [view()] });
    const direct = await send(share, null, { raw: body, contentType: 'text/plain;charset=UTF-8' });
    expect(direct.status).toBe(202);
    const proxied = await send(share, null, {
      raw: body,
      contentType: 'text/plain;charset=UTF-8',
      base: bff.url,
      headers: { origin: 'https://shop.example' },
    });
    expect(proxied.status).toBe(202);
    expect(proxied.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(await proxied.json()).toEqual({ success: true, accepted: 1, rejected: [] });
    expect((await counters(share.projectId)).views).toBe(2);
  });

  it('refuses a bad envelope whole with 400 invalid_request naming the field', async () => {
    const share = await stoolShare();
    const cases: Array<[unknown, string]> = [
      [{ sessionId: 'short', events: [view()] }, 'body.sessionId'],
      [{ sessionId: sessionId(), events: [] }, 'body.events'],
      [{ sessionId: sessionId(), events: Array.from({ length: 21 }, view) }, 'body.events'],
      [{ sessionId: sessionId(), events: [{ type: 'view', at: 'yesterday', data: {} }] }, 'body.events.0.at'],
      [{ sessionId: sessionId(), events: [{ ...view(), data: { note: 'x'.repeat(2100) } }] }, 'body.events.0.data'],
    ];
    for (const [body, field] of cases) {
      const res = await send(share, body);
      expect(res.status, field).toBe(400);
      const answer = await res.json();
      expect(answer).toMatchObject({ success: false, error: 'invalid_request' });
      expect(answer.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const notJson = await send(share, null, { raw: '{"sessionId":', contentType: 'text/plain' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: 'invalid_request' });
    expect(await counters(share.projectId)).toEqual({ views: 0, sessions: 0, optionChanges: 0 });
  });
});

describe('checks, in the read order', () => {
  it('answers 401, 429, 404, 402, 403 and 401 in that order, each before the body is looked at', async () => {
    const locked = await server.person('locked@events.test');
    const lockedCall = ownerCaller(
      () => server.url,
      () => locked.headers,
    );
    const share = await stoolShare({ domainRestrictions: ['shop.example.com'] });
    // A password whose hash is cheap (scrypt N=2^10): the product's own costs seconds on shared cores.
    await server.deps.db.$client.query(
      'update share_settings set require_password = true, password_hash = $1 where project_id = $2',
      [await hashPassword('pw', { ln: 10, r: 8, p: 1 }), share.projectId],
    );
    const lockedShare = await stoolShare({}, lockedCall);
    await server.deps.services.workspaces.change(locked.workspaceId, { billingStatus: 'locked' });
    const bad = 'not json at all';
    const ip = newClient();
    const at = (headers: Record<string, string>, target = share) =>
      send(target, null, { raw: bad, ip, headers: { origin: 'https://shop.example.com', ...headers } });

    const noKey = await send(share, null, { raw: bad, headers: { apikey: 'wrong' } });
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).error).toBe('invalid_api_key');

    expect((await at({}, { ...share, token: 'x'.repeat(43) })).status).toBe(404);
    const billing = await at({}, lockedShare);
    expect(billing.status).toBe(402);
    expect(await billing.json()).toEqual({ success: false, error: 'unavailable', reason: 'owner_billing' });
    expect((await at({ origin: 'https://elsewhere.example' })).status).toBe(403);
    const noPassword = await at({});
    expect(noPassword.status).toBe(401);
    expect((await noPassword.json()).error).toBe('password_required');
    expect((await at({ 'x-share-password': 'pw' })).status).toBe(400);

    // The budget comes before the share checks: a wrong token past it is 429, not 404. The five
    // calls above spent one unit each (a body that is not JSON counts as one event); 45 more fill it.
    for (const n of [20, 20, 5]) {
      const events = JSON.stringify({ sessionId: sessionId(), events: Array.from({ length: n }, view) });
      expect(
        (await send(share, null, { raw: events, ip, headers: { origin: 'https://shop.example.com' } })).status,
      ).toBe(401);
    }
    const limited = await at({}, { ...share, token: 'x'.repeat(43) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts the budget in events: a call that would pass it is refused whole and spends nothing', async () => {
    const share = await stoolShare();
    const ip = newClient();
    const events = (n: number) => ({ sessionId: sessionId(), events: Array.from({ length: n }, view) });
    // RATE_LIMIT_EVENTS is 50 per 5 minutes here.
    expect((await send(share, events(20), { ip })).status).toBe(202);
    expect((await send(share, events(20), { ip })).status).toBe(202);
    const refused = await send(share, events(20), { ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe('50');
    expect(await refused.json()).toMatchObject({ success: false, error: 'rate_limited' });
    // The refused call spent nothing: ten more still fit, then nothing does.
    expect((await send(share, events(10), { ip })).status).toBe(202);
    expect((await send(share, events(1), { ip })).status).toBe(429);
    // Another client has a budget of its own.
    expect((await send(share, events(1))).status).toBe(202);
    expect((await counters(share.projectId)).views).toBe(51);
  });
});

describe('the BFF', () => {
  it('refuses a body over 32 KB itself with 413 payload_too_large', async () => {
    const share = await stoolShare();
    const big = JSON.stringify({
      sessionId: sessionId(),
      events: [{ ...view(), data: { pad: 'x'.repeat(33 * 1024) } }],
    });
    const res = await send(share, null, { raw: big, base: bff.url, contentType: 'text/plain' });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error: 'payload_too_large' });

    // Sent in chunks, without a Content-Length: refused as it passes 32 KB.
    const chunked = await fetch(`${bff.url}/share/${share.projectId}/${share.token}/events`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await counters(share.projectId)).views).toBe(0);
  });

  it('answers the preflight of a call with the password header', async () => {
    const share = await stoolShare();
    const res = await fetch(`${bff.url}/share/${share.projectId}/${share.token}/events`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-share-password',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('x-share-password');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });
});

describe('webhooks', () => {
  async function hook(share: Share, id: string, events: string[]) {
    await ownerCall('PUT', `/projects/${share.projectId}/webhooks/${id}`, {
      url: `${receiver.url}/${share.projectId}/${id}`,
      events,
      secret: SECRET,
    });
    return (d: ReceivedDelivery) => d.path === `/hook/${share.projectId}/${id}`;
  }

  it('delivers option.changed with labels and price.calculated with the server price, signed', async () => {
    const share = await stoolShare();
    const mine = await hook(share, 'visitors', ['option.changed', 'price.calculated', 'animation.triggered']);
    const session = sessionId();
    const options = { seat: 'walnut', legs: 'brass' };
    const res = await send(share, {
      sessionId: session,
      events: [
        view(),
        optionChanged(),
        // Only the latest price of a batch is recorded.
        {
          type: 'price.calculated',
          at: now(),
          data: { options, fields: { quantity: 1 }, total: 21400, currency: 'EUR' },
        },
        // The page's total disagrees (a stale page): the event stays, with the server's price.
        {
          type: 'price.calculated',
          at: now(),
          data: { options, fields: { quantity: 2 }, total: 100, currency: 'EUR' },
        },
        { type: 'animation.triggered', at: now(), data: { animationId: 'turn', trigger: 'button' } },
      ],
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ accepted: 4, rejected: [{ index: 2, error: 'invalid_event' }] });

    const delivered = await receiver.waitFor(3, mine);
    for (const d of delivered) expect(d.standardValid && d.githubValid).toBe(true);
    const byType = Object.fromEntries(delivered.map((d) => [d.json.event, d.json]));
    expect(Object.keys(byType).sort()).toEqual(['animation.triggered', 'option.changed', 'price.calculated']);
    expect(byType['option.changed']).toMatchObject({
      projectId: share.projectId,
      data: {
        sessionId: session,
        at: expect.any(String),
        blockId: 'seat',
        blockName: 'Seat',
        choiceId: 'walnut',
        choiceLabel: 'Walnut',
        previousChoiceId: 'oak',
        source: 'visitor',
        options: { seat: 'walnut', legs: 'steel' },
      },
    });
    expect(byType['price.calculated'].data).toMatchObject({
      sessionId: session,
      options,
      fields: { quantity: 2 },
      clientTotal: 100,
      // (149 + 40 + 25) × 2, VAT included.
      price: { currency: 'EUR', decimals: 2, subtotal: 21400, total: 42800, tax: { rate: 0.19, included: true } },
    });
    expect(byType['animation.triggered'].data).toMatchObject({
      sessionId: session,
      animationId: 'turn',
      animationName: 'Turn around',
      trigger: 'button',
    });
  });

  it('stores each delivery body as the webhook module serializes its event, byte for byte', async () => {
    const share = await stoolShare();
    await hook(share, 'bodies', ['option.changed', 'price.calculated', 'viewer.screenshot']);
    const price = {
      type: 'price.calculated',
      at: now(),
      data: { options: { seat: 'walnut' }, total: 1, currency: 'EUR' },
    };
    const shot = { type: 'viewer.screenshot', at: now(), data: { width: 800 } };
    const res = await send(
      share,
      { sessionId: sessionId(), events: [view(), optionChanged(), price, shot] },
      {
        base: bff.url,
      },
    );
    expect(res.status).toBe(202);
    const { rows } = await server.deps.db.$client.query(
      `select d.body, e.id, e.type, e.created_at, e.data from webhook_deliveries d
       join project_events e on e.id = d.event_id where d.project_id = $1 order by e.type`,
      [share.projectId],
    );
    expect(rows.map((row) => row.type)).toEqual(['option.changed', 'price.calculated', 'viewer.screenshot']);
    for (const row of rows) {
      // The data's own key order is the body's: re-serializing it must give the very bytes stored.
      const data = JSON.parse(row.body).data;
      expect(data).toEqual(row.data);
      expect(row.body).toBe(
        serializeDeliveryBody({
          id: row.id,
          event: row.type,
          createdAt: row.created_at,
          projectId: share.projectId,
          data,
        }),
      );
    }
  });

  it('counts a view but delivers nothing for it', async () => {
    const share = await stoolShare();
    const mine = await hook(share, 'everything', ['option.changed', 'viewer.screenshot']);
    expect((await send(share, { sessionId: sessionId(), events: [view(), view()] })).status).toBe(202);
    const shot = { type: 'viewer.screenshot', at: now(), data: { width: 800, height: 600 } };
    expect((await send(share, { sessionId: sessionId(), events: [shot] })).status).toBe(202);
    const [delivered] = await receiver.waitFor(1, mine);
    expect(delivered.json.event).toBe('viewer.screenshot');
    expect(delivered.json.data).toMatchObject({ width: 800, height: 600 });
    expect((await counters(share.projectId)).views).toBe(2);
    const { rows } = await server.deps.db.$client.query('select event from webhook_deliveries where project_id = $1', [
      share.projectId,
    ]);
    expect(rows).toEqual([{ event: 'viewer.screenshot' }]);
  });
});
