import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  createSharedProject,
  startTestWorker,
  submit,
  validBody,
  waitFor,
  workerConfig,
} from './submission-fixtures.js';
import { startWorker } from '../../worker/app.js';
import { createLogger } from '#core/platform/log.js';
import { emitEvent } from '#core/services/events.js';
import { outboxWakeUpChannel } from '#core/jobs/outbox.js';
import { QUEUES, WEBHOOK_DELIVERY_BATCH_JOB } from '#core/jobs/queues.js';
import { webhookDeliveryBatch } from '../../worker/jobs/webhook-delivery.js';
import { JOBS } from '../../worker/jobs/index.js';
import type { Job } from 'bullmq';
import { dispatchOutbox } from '../../worker/outbox-relay.js';
import type { WorkerApp } from '../../worker/app.js';
import { createWebhookDeliveryRepository } from '#core/repositories/webhook-deliveries.js';

/**
 * Webhook deliveries end to end, to receivers that verify every request with the standard libraries.
 * WEBHOOK_RETRY_SCHEDULE shortens retries; its longest step (3 s) also bounds Retry-After.
 */
const SCHEDULE = '100ms,200ms,300ms,400ms,500ms,600ms,3s';
const SECRET = 'whsec_' + Buffer.alloc(32, 7).toString('base64');

let server: TestServer;
let owner: TestPerson;
let worker: WorkerApp;
let receiver: WebhookReceiver;

const workerOverrides = (extra: Record<string, string> = {}) => ({
  WEBHOOK_ALLOW_INSECURE: '1',
  WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
  ...extra,
});

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_INSECURE: '1' });
  owner = await server.person('owner@deliveries.test');
  receiver = await startWebhookReceiver(SECRET);
  worker = await startTestWorker(server.env.env, workerOverrides());
});
afterAll(async () => {
  await receiver?.close();
  await worker?.close(5000);
  await server?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...owner.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function newProject(): Promise<string> {
  return (await call('POST', '/projects', { name: 'Hooked', type: 'configurator', data: { models: [] } })).body.project
    .id;
}

/** A webhook to `receiver` at its own path, so each test counts only its own deliveries. */
async function addWebhook(
  projectId: string,
  id: string,
  events: string[],
  target: WebhookReceiver = receiver,
  extra: Record<string, unknown> = {},
) {
  const url = `${target.url}/${projectId}/${id}`;
  const res = await call('PUT', `/projects/${projectId}/webhooks/${id}`, {
    url,
    events,
    secret: target.secret,
    ...extra,
  });
  expect(res.status).toBe(201);
  return (d: ReceivedDelivery) => d.path === `/hook/${projectId}/${id}`;
}

/**
 * A worker with few slots (the hanging endpoint may hold only two of the four) and a project
 * whose `quote.updated` goes to a hanging receiver, a refused address and the healthy receiver.
 */
async function withDeadAndHangingEndpoints(
  test: (setup: {
    small: WorkerApp;
    hanging: WebhookReceiver;
    projectId: string;
    healthy: (d: ReceivedDelivery) => boolean;
  }) => Promise<void>,
) {
  const small = await startTestWorker(
    server.env.env,
    workerOverrides({ WEBHOOK_CONCURRENCY: '4', WEBHOOK_ENDPOINT_CONCURRENCY: '2' }),
  );
  const hanging = await startWebhookReceiver(SECRET, { fallback: 'hang' });
  try {
    const projectId = await newProject();
    await addWebhook(projectId, 'hanging', ['quote.updated'], hanging);
    await call('PUT', `/projects/${projectId}/webhooks/refused`, {
      url: 'http://127.0.0.1:9/hook',
      events: ['quote.updated'],
      secret: SECRET,
    });
    const healthy = await addWebhook(projectId, 'healthy', ['quote.updated']);
    await test({ small, hanging, projectId, healthy });
  } finally {
    await hanging.close();
    await small.close(5000);
  }
}

const trigger = async (projectId: string, event: string, data: Record<string, unknown> = {}) => {
  const res = await call('POST', `/projects/${projectId}/webhooks/trigger`, { event, data });
  expect(res.status).toBe(202);
  return res.body as { eventId: string; deliveries: Array<{ webhookId: string; deliveryId: string }> };
};
const log = async (projectId: string, id: string) =>
  (await call('GET', `/projects/${projectId}/webhooks/${id}/deliveries`)).body.deliveries as Array<
    Record<string, unknown>
  >;

/** Waits until no delivery of the project can go out again: each one delivered or failed, none left in the outbox. */
async function allFinished(projectId: string) {
  await waitFor(async () => {
    const { rows } = await server.deps.db.$client.query(
      `select count(*)::int as n from webhook_deliveries d where d.project_id = $1 and (d.state = 'pending'
         or exists (select 1 from outbox o where o.job_id like 'whd\\_' || d.id || '\\_%'))`,
      [projectId],
    );
    return rows[0].n === 0;
  }, 'every delivery of the project finished');
}

/**
 * Sends a later event to a webhook of its own on the project and waits for it: it travels the same outbox, relay
 * and queue, so a stray duplicate of an earlier delivery would have arrived by then.
 */
async function laterEventArrives(projectId: string) {
  const later = await addWebhook(projectId, 'later', ['project.published']);
  await trigger(projectId, 'project.published');
  await receiver.waitFor(1, later);
}

describe('fan-out', () => {
  it('sends each event, signed both ways, to every enabled webhook subscribed to its type, once', async () => {
    const share = await createSharedProject(server, owner, { pricingBlocks: [{ id: 'base', price: 100 }] });
    const { projectId } = share;
    const forms = await addWebhook(projectId, 'forms', ['form.submitted']);
    const quotes = await addWebhook(projectId, 'quotes', ['quote.submitted', 'quote.updated']);
    const off = await addWebhook(projectId, 'off', ['form.submitted'], receiver, { enabled: false });

    const { requestId } = await (await submit(server.url, share, validBody())).json();
    const [formDelivery] = await receiver.waitFor(1, forms);
    expect(formDelivery).toMatchObject({ githubValid: true, standardValid: true });
    expect(formDelivery.json).toMatchObject({
      event: 'form.submitted',
      projectId,
      createdAt: expect.any(String),
      data: { requestId, formData: validBody().formData },
    });
    expect(formDelivery.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-event': 'form.submitted',
      'x-service-attempt': '1',
      'x-service-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
      'webhook-signature': expect.stringMatching(/^v1,/),
    });
    expect(formDelivery.headers['webhook-id']).toBe(formDelivery.headers['x-service-delivery']);
    expect(Math.abs(Number(formDelivery.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(30);

    await receiver.waitFor(1, quotes);
    const patched = await call('PATCH', `/projects/${projectId}/requests/${requestId}`, { status: 'quoted' });
    expect(patched.status).toBe(200);
    const quoteDeliveries = await receiver.waitFor(2, quotes);
    expect(quoteDeliveries.map((d) => d.json.event)).toEqual(['quote.submitted', 'quote.updated']);

    await allFinished(projectId);
    await laterEventArrives(projectId);
    expect(receiver.received.filter(forms)).toHaveLength(1);
    expect(receiver.received.filter(quotes)).toHaveLength(2);
    expect(receiver.received.filter(off)).toHaveLength(0);
    expect(await log(projectId, 'forms')).toEqual([
      expect.objectContaining({
        webhookId: 'forms',
        event: 'form.submitted',
        statusCode: 200,
        delivered: true,
        attempt: 1,
        deliveryId: formDelivery.headers['x-service-delivery'],
      }),
    ]);
  });
});

describe('what receivers answer', () => {
  it('records a 2xx whose body holds a NUL byte (Postgres text cannot), as delivered, once', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'nul', ['option.changed']);
    receiver.replyNext({ status: 200, body: 'ok\u0000done' });
    await trigger(projectId, 'option.changed');
    await receiver.waitFor(1, mine);
    const records = await waitFor(async () => {
      const rows = await log(projectId, 'nul');
      return rows.length > 0 ? rows : null;
    }, 'the NUL reply recorded');
    expect(records).toEqual([
      expect.objectContaining({ delivered: true, statusCode: 200, responseBody: 'ok\uFFFDdone' }),
    ]);
    await allFinished(projectId);
    await laterEventArrives(projectId);
    expect(receiver.received.filter(mine)).toHaveLength(1);
  });

  it('lets only one of two identical claims in one statement win', async () => {
    const projectId = await newProject();
    await addWebhook(projectId, 'claimed', ['option.changed']);
    // A test delivery: pending with no outbox row, so no worker takes it meanwhile.
    const repo = createWebhookDeliveryRepository(server.deps.db);
    const delivery = await repo.createTest(server.deps.db, {
      workspaceId: owner.workspaceId,
      projectId,
      webhookId: 'claimed',
      body: '{}',
      event: 'webhook.test',
    });
    const claims = await repo.claimAttempts([
      { deliveryId: delivery.id, attempt: 1, leaseMs: 60_000 },
      { deliveryId: delivery.id, attempt: 1, leaseMs: 60_000 },
    ]);
    expect(claims.map((claim) => claim !== null)).toEqual([true, false]);
  });
});

describe('retries', () => {
  it('retries a failing endpoint with the same delivery id until it answers 2xx', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'flaky', ['option.changed']);
    receiver.replyNext({ status: 500 }, { status: 502 }, { status: 429 }, { status: 200 });
    const { deliveries } = await trigger(projectId, 'option.changed', { optionId: 'wood' });
    const attempts = await receiver.waitFor(4, mine);
    expect(attempts.map((a) => a.headers['x-service-delivery'])).toEqual(Array(4).fill(deliveries[0].deliveryId));
    expect(attempts.map((a) => a.headers['webhook-id'])).toEqual(Array(4).fill(deliveries[0].deliveryId));
    expect(attempts.map((a) => a.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(attempts.every((a) => a.githubValid && a.standardValid)).toBe(true);
    // The same bytes every time; only the timestamp headers are fresh.
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    // After the 429 the receiver gets at least the floor (here the schedule's longest step, 3 s).
    expect(attempts[3].receivedAt - attempts[2].receivedAt).toBeGreaterThanOrEqual(2900);

    const records = await waitFor(async () => {
      const rows = await log(projectId, 'flaky');
      return rows.length === 4 ? rows : null;
    }, 'four records');
    expect(records.map((r) => [r.attempt, r.statusCode, r.delivered, r.error])).toEqual([
      [4, 200, true, null],
      [3, 429, false, 'non_2xx'],
      [2, 502, false, 'non_2xx'],
      [1, 500, false, 'non_2xx'],
    ]);
  });

  it('honours Retry-After', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'busy', ['viewer.screenshot']);
    receiver.replyNext({ status: 503, headers: { 'retry-after': '2' } }, { status: 200 });
    await trigger(projectId, 'viewer.screenshot');
    // Between the two, the log shows the delivery waiting, with when its retry is due.
    const [waiting] = await waitFor(async () => {
      const rows = await log(projectId, 'busy');
      return rows.length === 1 ? rows : null;
    }, 'the first record');
    expect(waiting).toMatchObject({
      statusCode: 503,
      deliveryState: 'pending',
      deliveryAttempts: 1,
      nextAttemptAt: expect.any(String),
    });
    expect(Date.parse(waiting.nextAttemptAt as string)).toBeGreaterThan(Date.parse(waiting.timestamp as string) + 1500);
    const [first, second] = await receiver.waitFor(2, mine);
    // The schedule alone would wait 100 ms.
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1900);
    const done = await waitFor(async () => {
      const rows = await log(projectId, 'busy');
      return rows.length === 2 ? rows : null;
    }, 'both records');
    expect(done.map((r) => [r.deliveryState, r.deliveryAttempts, r.nextAttemptAt])).toEqual([
      ['delivered', 2, null],
      ['delivered', 2, null],
    ]);
    // The request excerpt: the start of the very bytes the receiver got.
    expect(done[0].requestExcerpt).toBe(first.body.slice(0, 1024));
  });

  it('gives up after the schedule: eight attempts, the delivery failed', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'down', ['animation.triggered']);
    receiver.replyNext(...Array(8).fill({ status: 500 }));
    await trigger(projectId, 'animation.triggered');
    await receiver.waitFor(8, mine, 25_000);
    // Failed, with no retry waiting in the outbox: no ninth attempt can start.
    await allFinished(projectId);
    await laterEventArrives(projectId);
    expect(receiver.received.filter(mine)).toHaveLength(8);
    const [{ state }] = (
      await server.deps.db.$client.query(
        `select state from webhook_deliveries where project_id = $1 and webhook_id = 'down'`,
        [projectId],
      )
    ).rows;
    expect(state).toBe('failed');
  }, 40_000);

  it('disables the webhook on 410, visibly, and sends it nothing more', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'gone', ['quote.deleted']);
    receiver.replyNext({ status: 410 });
    await trigger(projectId, 'quote.deleted');
    await receiver.waitFor(1, mine);
    const hook = await waitFor(async () => {
      const { webhooks } = (await call('GET', `/projects/${projectId}/webhooks`)).body;
      return webhooks[0].enabled ? null : webhooks[0];
    }, 'the webhook to be disabled');
    expect(hook).toMatchObject({ enabled: false, disabledReason: 'gone', disabledAt: expect.any(String) });
    expect((await trigger(projectId, 'quote.deleted')).deliveries).toEqual([]);
    await allFinished(projectId);
    await laterEventArrives(projectId);
    expect(receiver.received.filter(mine)).toHaveLength(1);
    // Re-enabling clears the reason.
    const { body } = await call('PUT', `/projects/${projectId}/webhooks/gone`, {
      url: `${receiver.url}/${projectId}/gone`,
      events: ['quote.deleted'],
    });
    expect(body.webhook).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('disables a webhook whose deliveries have all failed for five days', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'stale', ['price.calculated']);
    await server.deps.db.$client.query(
      `update webhooks set failing_since = now() - interval '5 days 1 minute' where project_id = $1`,
      [projectId],
    );
    receiver.replyNext({ status: 500 });
    await trigger(projectId, 'price.calculated');
    await receiver.waitFor(1, mine);
    const hook = await waitFor(async () => {
      const { webhooks } = (await call('GET', `/projects/${projectId}/webhooks`)).body;
      return webhooks[0].enabled ? null : webhooks[0];
    }, 'the webhook to be disabled');
    expect(hook).toMatchObject({ enabled: false, disabledReason: 'failing' });
    await allFinished(projectId);
    await laterEventArrives(projectId);
    expect(receiver.received.filter(mine)).toHaveLength(1);
  });
});

describe('delivery log and redelivery', () => {
  it('keeps the last 50 records per webhook, newest first', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'many', ['project.updated']);
    for (let i = 0; i < 55; i++) await trigger(projectId, 'project.updated', { n: i });
    await receiver.waitFor(55, mine);
    const records = await waitFor(async () => {
      const { rows } = await server.deps.db.$client.query(
        `select count(*)::int as n from webhook_deliveries where project_id = $1 and state = 'pending'`,
        [projectId],
      );
      return rows[0].n === 0 ? log(projectId, 'many') : null;
    }, 'every delivery to finish');
    expect(records).toHaveLength(50);
    const timestamps = records.map((r) => Date.parse(r.timestamp as string));
    expect([...timestamps].sort((a, b) => b - a)).toEqual(timestamps);
    const stored = await server.deps.db.$client.query(
      `select count(*)::int as n from webhook_attempts where project_id = $1`,
      [projectId],
    );
    expect(stored.rows[0].n).toBeLessThanOrEqual(52);
  });

  it('redelivers a finished delivery with the same delivery id, and refuses one still being retried', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'again', ['form.submitted']);
    const { deliveries } = await trigger(projectId, 'form.submitted', { replay: true });
    const [first] = await receiver.waitFor(1, mine);
    await waitFor(async () => (await log(projectId, 'again')).length === 1, 'the first record');
    const res = await call(
      'POST',
      `/projects/${projectId}/webhooks/again/deliveries/${deliveries[0].deliveryId}/redeliver`,
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, deliveryId: deliveries[0].deliveryId, webhookId: 'again' });
    const [, second] = await receiver.waitFor(2, mine);
    expect(second.headers['x-service-delivery']).toBe(first.headers['x-service-delivery']);
    expect(second.headers['x-service-attempt']).toBe('2');
    expect(second.body).toBe(first.body);
    expect(second.standardValid).toBe(true);

    // A delivery waiting for its next retry is not redelivered by hand.
    receiver.replyNext({ status: 500, headers: { 'retry-after': '3' } });
    const pending = await trigger(projectId, 'form.submitted');
    await receiver.waitFor(3, mine);
    const busy = await call(
      'POST',
      `/projects/${projectId}/webhooks/again/deliveries/${pending.deliveries[0].deliveryId}/redeliver`,
    );
    expect(busy.status).toBe(409);
    expect(
      (
        await call(
          'POST',
          `/projects/${projectId}/webhooks/again/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
        )
      ).status,
    ).toBe(404);
  });
});

describe('isolation and recovery', () => {
  it(
    'a dead or hanging endpoint does not delay deliveries to a healthy one',
    () =>
      withDeadAndHangingEndpoints(async ({ hanging, projectId, healthy }) => {
        const started = Date.now();
        for (let i = 0; i < 10; i++) await trigger(projectId, 'quote.updated', { n: i });
        await receiver.waitFor(10, healthy, 10_000);
        // The hanging endpoint's attempts wait 15 s each; the healthy ones did not wait for them.
        expect(Date.now() - started).toBeLessThan(8000);
        expect(hanging.received.length).toBeGreaterThan(0);
      }),
    40_000,
  );

  it('recovers a retry whose job Redis lost (keys flushed between attempts)', async () => {
    const projectId = await newProject();
    const mine = await addWebhook(projectId, 'lost', ['project.published']);
    // A worker of its own with a slow second step, so the retry waits in Redis when it is lost.
    await worker.close(5000);
    let current = await startTestWorker(server.env.env, workerOverrides({ WEBHOOK_RETRY_SCHEDULE: '1500ms,1500ms' }));
    try {
      receiver.replyNext({ status: 500 });
      const { deliveries } = await trigger(projectId, 'project.published');
      await receiver.waitFor(1, mine);
      await waitFor(async () => (await log(projectId, 'lost')).length === 1, 'the first attempt to be recorded');
      await current.close(5000);

      // Redis restarted empty, as far as this deployment can tell: every key of its prefix goes.
      const redis = new Redis(server.env.env.REDIS_URL);
      const keys = await redis.keys(`${server.env.env.QUEUE_PREFIX}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();

      current = await startTestWorker(server.env.env, workerOverrides({ WEBHOOK_RETRY_SCHEDULE: '1500ms,1500ms' }));
      const [, retried] = await receiver.waitFor(2, mine, 20_000);
      expect(retried.headers['x-service-delivery']).toBe(deliveries[0].deliveryId);
      expect(retried.headers['x-service-attempt']).toBe('2');
      await waitFor(async () => (await log(projectId, 'lost'))[0]?.delivered === true, 'the retry to be recorded');
    } finally {
      await current.close(5000);
      worker = await startTestWorker(server.env.env, workerOverrides());
    }
  }, 40_000);

  it('refuses a private target at connect time when insecure mode is off', async () => {
    await worker.close(5000);
    const strict = await startTestWorker(server.env.env, workerOverrides({ WEBHOOK_ALLOW_INSECURE: '0' }));
    try {
      const projectId = await newProject();
      const mine = await addWebhook(projectId, 'private', ['form.submitted']);
      // Registered in insecure mode, delivered by a worker that is not: the address is checked on connect.
      await server.deps.db.$client.query(
        `update webhooks set url = replace(url, 'http://127.0.0.1', 'https://localhost') where project_id = $1`,
        [projectId],
      );
      await trigger(projectId, 'form.submitted');
      const [record] = await waitFor(async () => {
        const rows = await log(projectId, 'private');
        return rows.length > 0 ? rows : null;
      }, 'the refused attempt');
      expect(record).toMatchObject({ statusCode: 0, delivered: false, error: 'ssrf_blocked' });
      expect(receiver.received.filter(mine)).toHaveLength(0);
    } finally {
      await strict.close(5000);
      worker = await startTestWorker(server.env.env, workerOverrides());
    }
  });
});

describe('batches of first attempts', () => {
  /** Events committed together, as a burst: the relay hands their first attempts over in batch jobs. */
  async function burst(projectId: string, type: Parameters<typeof emitEvent>[2]['type'], count: number) {
    await server.deps.db.transaction(async (tx) => {
      for (let i = 0; i < count; i++)
        await emitEvent(server.deps, tx, { workspaceId: owner.workspaceId, projectId, type, data: { n: i } });
    });
    const redis = new Redis(server.env.env.REDIS_URL);
    await redis.publish(outboxWakeUpChannel(server.env.env.QUEUE_PREFIX), '1');
    await redis.quit();
  }

  it(
    'a batch whose endpoints include a dead and a hanging one delivers to the healthy one at once, each delivery once',
    () =>
      withDeadAndHangingEndpoints(async ({ small, hanging, projectId, healthy }) => {
        const started = Date.now();
        await burst(projectId, 'quote.updated', 20);
        const got = await receiver.waitFor(20, healthy, 10_000);
        // The hanging endpoint's attempts wait 15 s each, the refused ones are retried: the healthy wait for neither.
        expect(Date.now() - started).toBeLessThan(8000);
        // The hanging and refused deliveries stay pending: only the later event can show no duplicate is coming.
        await laterEventArrives(projectId);
        expect(receiver.received.filter(healthy)).toHaveLength(20);
        expect(new Set(got.map((d) => d.headers['x-service-delivery'])).size).toBe(20);
        expect(hanging.received.length).toBeGreaterThan(0);
        // They travelled in batches (not one job per delivery).
        const queue = small.deps.queues[QUEUES.webhookDeliveries];
        const jobs = [
          ...(await queue.getJobs(['completed', 'active'])),
          ...(await worker.deps.queues[QUEUES.webhookDeliveries].getJobs(['completed', 'active'])),
        ];
        expect(
          jobs.some(
            (job) => job.name === WEBHOOK_DELIVERY_BATCH_JOB && (job.data as { items: unknown[] }).items.length > 1,
          ),
        ).toBe(true);
      }),
    40_000,
  );

  it('a batch rerun after a run died part-way sends only what was undelivered, keeping each state', async () => {
    await worker.close(5000);
    // No relay: the test hands the batch to the processor itself, as BullMQ would after a crash.
    const direct = await startWorker(workerConfig(server.env.env, workerOverrides()), {
      log: createLogger('silent'),
      relay: false,
    });
    try {
      const projectId = await newProject();
      const paths = ['a', 'b', 'c'];
      for (const id of paths) await addWebhook(projectId, id, ['project.updated']);
      const emitted = await emitEvent(server.deps, server.deps.db, {
        workspaceId: owner.workspaceId,
        projectId,
        type: 'project.updated',
        data: {},
      });
      const byHook = new Map(emitted!.deliveries.map((d) => [d.webhookId, d]));
      const item = (id: string) =>
        byHook.get(id)!.outbox.data as { deliveryId: string; attempt: number; endpoint: string };
      const items = paths.map(item);
      const runBatch = (batch: typeof items, signal = new AbortController().signal) =>
        webhookDeliveryBatch.process({ data: { items: batch } } as unknown as Job<{ items: typeof items }>, {
          deps: direct.deps,
          signal,
        });
      const sentTo = (id: string) => receiver.received.filter((d) => d.path === `/hook/${projectId}/${id}`);
      const state = async (id: string) =>
        (
          await server.deps.db.$client.query(`select state, attempts from webhook_deliveries where id = $1`, [
            item(id).deliveryId,
          ])
        ).rows[0] as { state: string; attempts: number };
      const outboxRows = async () =>
        (
          await server.deps.db.$client.query(`select job_id from outbox where job_id = any($1)`, [
            paths.map((id) => `whd_${item(id).deliveryId}_1`),
          ])
        ).rows.length;

      // A run whose job is out of time before its attempts got a place starts none of them: they stay for the relay.
      const outOfTime = new AbortController();
      outOfTime.abort(new Error('the job ran out of time'));
      expect(await runBatch(items, outOfTime.signal)).toMatchObject({ attempts: 3, failed: 0 });
      expect(paths.flatMap(sentTo)).toHaveLength(0);
      expect(await state('a')).toEqual({ state: 'pending', attempts: 0 });
      expect(await outboxRows()).toBe(3);

      // The first run delivered to a, and died while sending to b (its lease still runs).
      await runBatch([item('a')]);
      await server.deps.db.$client.query(
        `update webhook_deliveries set attempts = 1, lease_until = now() + interval '1 hour' where id = $1`,
        [item('b').deliveryId],
      );

      // Run again: a is not sent twice, b is left to the run holding it, c goes out.
      await runBatch(items);
      expect(sentTo('a')).toHaveLength(1);
      expect(sentTo('b')).toHaveLength(0);
      expect(sentTo('c')).toHaveLength(1);
      expect(await state('a')).toEqual({ state: 'delivered', attempts: 1 });
      expect(await state('b')).toEqual({ state: 'pending', attempts: 1 });
      expect(await state('c')).toEqual({ state: 'delivered', attempts: 1 });
      expect(await outboxRows()).toBe(1);

      // b's lease runs out (its run is dead): the next run makes b's attempt, under the same delivery id, once.
      await server.deps.db.$client.query(
        `update webhook_deliveries set lease_until = now() - interval '1 second' where id = $1`,
        [item('b').deliveryId],
      );
      await runBatch(items);
      await runBatch(items);
      expect(sentTo('a')).toHaveLength(1);
      expect(sentTo('c')).toHaveLength(1);
      expect(sentTo('b')).toHaveLength(1);
      expect(sentTo('b')[0].headers['x-service-delivery']).toBe(item('b').deliveryId);
      expect(await state('b')).toEqual({ state: 'delivered', attempts: 1 });
      expect(await outboxRows()).toBe(0);
      for (const id of paths) expect(await log(projectId, id)).toHaveLength(1);
    } finally {
      await direct.close(5000);
      worker = await startTestWorker(server.env.env, workerOverrides());
    }
  }, 40_000);

  it('a batch job Redis lost: the relay hands each delivery over again alone, each delivered once', async () => {
    await worker.close(5000);
    const direct = await startWorker(workerConfig(server.env.env, workerOverrides()), {
      log: createLogger('silent'),
      relay: false,
      jobs: { ...JOBS, queues: new Map() },
    });
    const projectId = await newProject();
    try {
      await addWebhook(projectId, 'carried', ['project.updated']);
      await server.deps.db.transaction(async (tx) => {
        for (let i = 0; i < 5; i++)
          await emitEvent(server.deps, tx, {
            workspaceId: owner.workspaceId,
            projectId,
            type: 'project.updated',
            data: { n: i },
          });
      });
      const jobIds = (
        await server.deps.db.$client.query(
          "select o.job_id from outbox o join webhook_deliveries d on o.job_id = 'whd_' || d.id || '_1' " +
            'where d.project_id = $1',
          [projectId],
        )
      ).rows.map((r) => r.job_id as string);
      expect(jobIds).toHaveLength(5);
      // Handed over together (no worker takes them: this one runs no queue)...
      await dispatchOutbox(direct.deps, {});
      const carriers = (
        await server.deps.db.$client.query(`select distinct carrier_job_id from outbox where job_id = any($1)`, [
          jobIds,
        ])
      ).rows;
      expect(carriers).toHaveLength(1);
      expect(carriers[0].carrier_job_id).toMatch(/^deliver-batch_/);
      // ...then Redis loses the carrier, and the rows come due.
      await direct.deps.queues[QUEUES.webhookDeliveries].remove(carriers[0].carrier_job_id);
      await server.deps.db.$client.query(`update outbox set next_attempt_at = now() where job_id = any($1)`, [jobIds]);
      const again = await dispatchOutbox(direct.deps, {});
      expect(again.sent).toBeGreaterThanOrEqual(5);
      const left = (
        await server.deps.db.$client.query(`select carrier_job_id from outbox where job_id = any($1)`, [jobIds])
      ).rows;
      expect(left.every((r) => r.carrier_job_id === null)).toBe(true);
      for (const id of jobIds)
        expect(await direct.deps.queues[QUEUES.webhookDeliveries].getJobState(id)).toBe('waiting');
    } finally {
      await direct.close(5000);
      worker = await startTestWorker(server.env.env, workerOverrides());
    }
    const delivered = await receiver.waitFor(5, (d) => d.path.includes('/carried'), 10_000);
    await allFinished(projectId);
    await laterEventArrives(projectId);
    expect(receiver.received.filter((d) => d.path.includes('/carried'))).toHaveLength(5);
    expect(new Set(delivered.map((d) => d.headers['x-service-delivery'])).size).toBe(5);
  }, 40_000);
});
