import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { freePort } from '../helpers/test-env.js';

/**
 * The owner side of webhooks (docs/api.md, Webhooks): configuration, validation, the write-only secret, the limits, the
 * test endpoint against a real receiver, SSRF refusals with insecure mode off, and who may do what.
 */
let secure: TestServer;
let insecure: TestServer;
let owner: TestPerson;
let insecureOwner: TestPerson;
let receiver: WebhookReceiver;
const SECRET = 'receiver-secret-0123456789';
/** A public address as an IP literal: passes the registration check without DNS. */
const PUBLIC_URL = 'https://93.184.215.14/hooks/config-share';

beforeAll(async () => {
  [secure, insecure] = await Promise.all([startTestServer(), startTestServer({ WEBHOOK_ALLOW_INSECURE: '1' })]);
  owner = await secure.person('owner@webhooks.test');
  insecureOwner = await insecure.person('owner@webhooks.test');
  receiver = await startWebhookReceiver(SECRET);
});
afterAll(async () => {
  await receiver?.close();
  await Promise.all([secure?.close(), insecure?.close()]);
});

async function call(
  server: TestServer,
  who: TestPerson | Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
) {
  const headers = 'headers' in who ? (who as TestPerson).headers : (who as Record<string, string>);
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function newProject(server: TestServer, who: TestPerson): Promise<string> {
  const { status, body } = await call(server, who, 'POST', '/projects', {
    name: 'Hooked',
    type: 'configurator',
    data: { models: [] },
  });
  expect(status).toBe(201);
  return body.project.id;
}

describe('configuration', () => {
  it('creates with 201, answers a generated secret once, updates with 200, never shows the secret again', async () => {
    const projectId = await newProject(secure, owner);
    const created = await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/orders`, {
      url: PUBLIC_URL,
      events: ['form.submitted', 'quote.updated'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      success: true,
      webhook: {
        id: 'orders',
        name: 'orders',
        url: PUBLIC_URL,
        events: ['form.submitted', 'quote.updated'],
        enabled: true,
        secretSet: true,
        disabledReason: null,
      },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(created.body.webhook).not.toHaveProperty('secret');

    const updated = await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/orders`, {
      url: PUBLIC_URL,
      events: ['quote.deleted'],
      name: 'Orders',
      enabled: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ webhook: { name: 'Orders', events: ['quote.deleted'], enabled: false } });
    expect(updated.body).not.toHaveProperty('secret');

    // Idempotent: the same PUT again is the same webhook.
    const again = await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/orders`, {
      url: PUBLIC_URL,
      events: ['quote.deleted'],
      name: 'Orders',
      enabled: false,
    });
    expect(again.status).toBe(200);

    const list = await call(secure, owner, 'GET', `/projects/${projectId}/webhooks`);
    expect(list.body).toMatchObject({ success: true, webhooks: [{ id: 'orders', enabled: false }] });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    // A secret of one's own is accepted and kept write-only; omitted on update, it stays.
    const own = await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/own`, {
      url: PUBLIC_URL,
      events: ['form.submitted'],
      secret: 'my-own-signing-secret',
    });
    expect(own.status).toBe(201);
    expect(own.body).not.toHaveProperty('secret');
    const [{ secret }] = (await secure.deps.db.$client.query(`select secret from webhooks where id = 'own'`)).rows;
    expect(secret).toBe('my-own-signing-secret');

    expect((await call(secure, owner, 'DELETE', `/projects/${projectId}/webhooks/own`)).body).toEqual({
      success: true,
    });
    expect((await call(secure, owner, 'DELETE', `/projects/${projectId}/webhooks/own`)).status).toBe(404);
  });

  it('refuses bad input with invalid_event, invalid_url and invalid_request', async () => {
    const projectId = await newProject(secure, owner);
    const put = (id: string, body: unknown) =>
      call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/${id}`, body);

    const badEvent = await put('a', { url: PUBLIC_URL, events: ['form.submitted', 'order.created', 'webhook.test'] });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body).toMatchObject({
      success: false,
      error: 'invalid_event',
      message: expect.stringContaining('order.created'),
    });
    expect(badEvent.body.message).toContain('webhook.test');

    for (const url of [
      'not a url',
      'http://93.184.215.14/hook',
      'ftp://93.184.215.14/',
      'https://user:pass@93.184.215.14/',
    ]) {
      const res = await put('a', { url, events: ['form.submitted'] });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe('invalid_url');
    }
    expect((await put('a', { events: ['form.submitted'] })).body.error).toBe('invalid_request');
    expect((await put('a', { url: PUBLIC_URL, events: [] })).body.error).toBe('invalid_request');
    expect((await put('bad id!', { url: PUBLIC_URL, events: ['form.submitted'] })).body.error).toBe('invalid_request');
    expect((await put('x'.repeat(65), { url: PUBLIC_URL, events: ['form.submitted'] })).body.error).toBe(
      'invalid_request',
    );
    expect((await put('a', { url: PUBLIC_URL, events: ['form.submitted'], secret: 'short' })).body.error).toBe(
      'invalid_request',
    );
    expect((await put('a', { url: PUBLIC_URL, events: ['form.submitted'], secret: 'whsec_tooshort' })).body.error).toBe(
      'invalid_request',
    );

    const unknownProject = await call(
      secure,
      owner,
      'PUT',
      `/projects/00000000-0000-4000-8000-000000000000/webhooks/a`,
      { url: PUBLIC_URL, events: ['form.submitted'] },
    );
    expect(unknownProject.status).toBe(404);
    expect((await call(secure, owner, 'GET', `/projects/${projectId}/webhooks/nope/deliveries`)).status).toBe(404);
    expect(
      (
        await call(secure, owner, 'POST', `/projects/${projectId}/webhooks/trigger`, {
          event: 'order.created',
          data: {},
        })
      ).body.error,
    ).toBe('invalid_event');
    expect(
      (
        await call(secure, owner, 'POST', `/projects/${projectId}/webhooks/trigger`, {
          event: 'webhook.test',
          data: {},
        })
      ).body.error,
    ).toBe('invalid_event');
  });

  it('allows at most 20 webhooks per project: the 21st is a 409', async () => {
    const projectId = await newProject(secure, owner);
    for (let i = 1; i <= 20; i++) {
      expect(
        (
          await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/h${i}`, {
            url: PUBLIC_URL,
            events: ['form.submitted'],
          })
        ).status,
      ).toBe(201);
    }
    const over = await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/h21`, {
      url: PUBLIC_URL,
      events: ['form.submitted'],
    });
    expect(over.status).toBe(409);
    expect(over.body.error).toBe('conflict');
    // Updating one of the twenty still works.
    expect(
      (
        await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/h20`, {
          url: PUBLIC_URL,
          events: ['quote.updated'],
        })
      ).status,
    ).toBe(200);
  });

  it('trigger answers 202 with one delivery per enabled matching webhook', async () => {
    const projectId = await newProject(secure, owner);
    await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/yes`, {
      url: PUBLIC_URL,
      events: ['price.calculated'],
    });
    await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/other`, {
      url: PUBLIC_URL,
      events: ['form.submitted'],
    });
    await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/off`, {
      url: PUBLIC_URL,
      events: ['price.calculated'],
      enabled: false,
    });
    const res = await call(secure, owner, 'POST', `/projects/${projectId}/webhooks/trigger`, {
      event: 'price.calculated',
      data: { total: 120 },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      success: true,
      event: 'price.calculated',
      deliveries: [{ webhookId: 'yes', deliveryId: expect.any(String) }],
    });
    expect(res.body.deliveries).toHaveLength(1);
  });
});

describe('SSRF with insecure mode off', () => {
  const probes = [
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/hook',
    'https://localhost/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://0177.0.0.1/hook',
    'https://192.168.1.10/hook',
    'https://[fd00::1]/hook',
    'https://100.64.0.1/hook',
  ];
  it.each(probes)('refuses %s at registration', async (url) => {
    const projectId = await newProject(secure, owner);
    const res = await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/probe`, {
      url,
      events: ['form.submitted'],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_url');
  });

  it('refuses again at connect time, on the resolved address: a stored loopback target is never reached', async () => {
    const projectId = await newProject(secure, owner);
    await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/rebound`, {
      url: PUBLIC_URL,
      events: ['form.submitted'],
    });
    for (const url of [
      `https://localhost:${receiver.port}/hook`,
      `https://[::ffff:127.0.0.1]:${receiver.port}/hook`,
      `http://127.0.0.1:${receiver.port}/hook`,
    ]) {
      // As if the name had been re-pointed after registration (DNS rebinding).
      await secure.deps.db.$client.query(`update webhooks set url = $1 where project_id = $2 and id = 'rebound'`, [
        url,
        projectId,
      ]);
      const before = receiver.received.length;
      const res = await call(secure, owner, 'POST', `/projects/${projectId}/webhooks/rebound/test`);
      expect(res.status, url).toBe(200);
      expect(res.body.test, url).toMatchObject({ statusCode: 0, delivered: false, error: 'ssrf_blocked' });
      expect(receiver.received.length, url).toBe(before);
    }
  });
});

describe('test endpoint', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = await newProject(insecure, insecureOwner);
  });
  const testHook = async (url: string) => {
    await call(insecure, insecureOwner, 'PUT', `/projects/${projectId}/webhooks/t`, {
      url,
      events: ['form.submitted'],
      secret: SECRET,
    });
    return call(insecure, insecureOwner, 'POST', `/projects/${projectId}/webhooks/t/test`);
  };

  it('sends a signed webhook.test and answers the receiver status: 2xx, 4xx, 5xx', async () => {
    receiver.replyNext({ status: 204 }, { status: 404 }, { status: 503 });
    const before = receiver.received.length;
    const ok = await testHook(receiver.url);
    expect(ok.body).toEqual({
      success: true,
      test: {
        statusCode: 204,
        statusText: 'No Content',
        delivered: true,
        deliveryId: expect.any(String),
        durationMs: expect.any(Number),
        error: null,
      },
    });
    const sent = receiver.received[before];
    expect(sent).toMatchObject({ githubValid: true, standardValid: true, json: { event: 'webhook.test', projectId } });
    expect(sent.headers).toMatchObject({
      'x-service-event': 'webhook.test',
      'x-service-delivery': ok.body.test.deliveryId,
      'x-service-attempt': '1',
      'webhook-id': ok.body.test.deliveryId,
    });

    const notFound = await testHook(receiver.url);
    expect(notFound.body.test).toMatchObject({
      statusCode: 404,
      statusText: 'Not Found',
      delivered: false,
      error: 'non_2xx',
    });
    const unavailable = await testHook(receiver.url);
    expect(unavailable.body.test).toMatchObject({
      statusCode: 503,
      statusText: 'Service Unavailable',
      delivered: false,
      error: 'non_2xx',
    });

    // Each test is in the log, newest first; tests are never retried.
    const log = await call(insecure, insecureOwner, 'GET', `/projects/${projectId}/webhooks/t/deliveries`);
    expect(log.body.deliveries.slice(0, 3).map((d: { statusCode: number }) => d.statusCode)).toEqual([503, 404, 204]);
    expect(log.body.deliveries[0]).toMatchObject({
      webhookId: 't',
      event: 'webhook.test',
      delivered: false,
      attempt: 1,
      timestamp: expect.any(String),
      error: 'non_2xx',
      responseBody: 'ok',
    });
  });

  it('answers connection refused as statusCode 0 with error connect', async () => {
    const res = await testHook(`http://127.0.0.1:${await freePort()}/hook`);
    expect(res.body.test).toMatchObject({ statusCode: 0, delivered: false, error: 'connect' });
  });

  it('gives up after 10 seconds on a receiver that does not answer', async () => {
    receiver.replyNext('hang');
    const started = Date.now();
    const res = await testHook(receiver.url);
    expect(res.body.test).toMatchObject({ statusCode: 0, delivered: false, error: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
    expect(Date.now() - started).toBeLessThan(14_000);
  }, 30_000);
});

describe('permissions', () => {
  it('viewers get 403, other workspaces 404, API keys act as editors', async () => {
    const projectId = await newProject(secure, owner);
    await call(secure, owner, 'PUT', `/projects/${projectId}/webhooks/p`, {
      url: PUBLIC_URL,
      events: ['form.submitted'],
    });
    const viewer = await secure.member(owner.workspaceId, 'viewer@webhooks.test', 'viewer');
    const stranger = await secure.person('stranger@webhooks.test');
    const { key } = (await call(secure, owner, 'POST', '/workspace/api-keys', { name: 'hooks' })).body;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/projects/${projectId}/webhooks`],
      ['PUT', `/projects/${projectId}/webhooks/p`, { url: PUBLIC_URL, events: ['form.submitted'] }],
      ['GET', `/projects/${projectId}/webhooks/p/deliveries`],
      ['POST', `/projects/${projectId}/webhooks/trigger`, { event: 'animation.triggered', data: {} }],
      ['POST', `/projects/${projectId}/webhooks/p/test`],
      ['POST', `/projects/${projectId}/webhooks/p/deliveries/00000000-0000-4000-8000-000000000000/redeliver`],
      ['DELETE', `/projects/${projectId}/webhooks/p`],
    ];
    for (const [method, path, body] of routes) {
      const asViewer = await call(secure, viewer, method, path, body);
      expect(asViewer.status, `${method} ${path}`).toBe(403);
      expect(asViewer.body.error).toBe('forbidden');
      const asStranger = await call(secure, stranger, method, path, body);
      expect(asStranger.status, `${method} ${path}`).toBe(404);
      expect(asStranger.body.error).toBe('not_found');
      expect((await call(secure, {}, method, path, body)).status).toBe(401);
    }
    const apiKey = { 'x-api-key': key };
    expect((await call(secure, apiKey, 'GET', `/projects/${projectId}/webhooks`)).status).toBe(200);
    expect(
      (
        await call(secure, apiKey, 'PUT', `/projects/${projectId}/webhooks/p`, {
          url: PUBLIC_URL,
          events: ['quote.updated'],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(secure, apiKey, 'POST', `/projects/${projectId}/webhooks/trigger`, {
          event: 'quote.updated',
          data: {},
        })
      ).status,
    ).toBe(202);
    expect((await call(secure, apiKey, 'GET', `/projects/${projectId}/webhooks/p/deliveries`)).status).toBe(200);
    expect((await call(secure, apiKey, 'DELETE', `/projects/${projectId}/webhooks/p`)).status).toBe(200);
  });
});
