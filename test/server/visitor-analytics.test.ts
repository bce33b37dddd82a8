import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { ownerCaller } from '../helpers/owner-call.js';
import { PUBLIC_HEADERS } from '../worker/submission-fixtures.js';
import { STOOL_SCENE } from '../helpers/stool-scene.js';
import { createVisitorCounterRepository } from '#core/repositories/visitor-counters.js';
import { sweepVisitorEvents } from '#core/services/visitor-event-retention.js';

/**
 * GET /projects/:id/analytics (docs/api.md, Analytics) after real visitor events and a submit, the
 * submissions counter, and the retention sweep of raw visitor events (docs/api.md, Visitor events).
 */
let server: TestServer;
let owner: TestPerson;
const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_EVENTS: '10000/5m',
    RATE_LIMIT_SUBMIT: '1000/5m',
    CART_SIGNING_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  });
  owner = await server.person('owner@analytics.test');
});
afterAll(async () => {
  await server?.close();
});

const DAY_MS = 24 * 3600_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const sessionId = () => randomBytes(16).toString('base64url');

async function stoolShare() {
  const { project } = await ownerCall('POST', '/projects', {
    name: 'Stool',
    type: 'configurator',
    data: {
      models: [],
      sceneData: { ...STOOL_SCENE, projectSettings: { ...STOOL_SCENE.projectSettings, cart: { enabled: true } } },
    },
  });
  const { settings } = await ownerCall('PUT', `/projects/${project.id}/share`, { isEnabled: true });
  return { projectId: project.id as string, token: settings.shareToken as string };
}

async function send(share: { projectId: string; token: string }, session: string, events: unknown[]) {
  const res = await fetch(`${server.url}/share/${share.projectId}/${share.token}/events`, {
    method: 'POST',
    headers: { ...PUBLIC_HEADERS, 'content-type': 'text/plain' },
    body: JSON.stringify({ sessionId: session, events }),
  });
  expect(res.status).toBe(202);
  expect((await res.json()).rejected).toEqual([]);
}

const at = () => new Date().toISOString();
const change = (blockId: string, choiceId: string, previousChoiceId: string) => ({
  type: 'option.changed',
  at: at(),
  data: { blockId, choiceId, previousChoiceId, source: 'visitor', options: { [blockId]: choiceId } },
});

async function analytics(projectId: string, query = '', who: TestPerson = owner) {
  const res = await fetch(`${server.url}/projects/${projectId}/analytics${query}`, { headers: who.headers });
  return { status: res.status, body: await res.json() };
}

describe('analytics', () => {
  it('answers every day with zeros, totals, distinct sessions, top choices and conversion', async () => {
    const share = await stoolShare();
    const first = sessionId();
    const second = sessionId();
    await send(share, first, [{ type: 'view', at: at(), data: {} }, change('seat', 'walnut', 'oak')]);
    await send(share, first, [change('seat', 'oak', 'walnut'), change('seat', 'walnut', 'oak')]);
    await send(share, second, [
      { type: 'view', at: at(), data: {} },
      change('legs', 'brass', 'steel'),
      { type: 'animation.triggered', at: at(), data: { animationId: 'turn', trigger: 'button' } },
      { type: 'ar.opened', at: at(), data: {} },
      { type: 'configuration.saved', at: at(), data: {} },
    ]);
    const submitted = await fetch(`${server.url}/share/${share.projectId}/${share.token}/submit`, {
      method: 'POST',
      headers: { ...PUBLIC_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify({ formData: { email: 'visitor@example.com', quantity: 1 }, selectedOptions: {} }),
    });
    expect(submitted.status).toBe(200);
    // Put in the cart twice: one configuration, two cart adds.
    for (const expected of [201, 200]) {
      const added = await fetch(`${server.url}/share/${share.projectId}/${share.token}/configurations`, {
        method: 'POST',
        headers: { ...PUBLIC_HEADERS, 'content-type': 'application/json' },
        body: JSON.stringify({ options: { seat: 'walnut' } }),
      });
      expect(added.status).toBe(expected);
    }
    // Three days ago: one session that viewed, counted as the writers count.
    await createVisitorCounterRepository(server.deps.db).addVisitorCounts({
      projectId: share.projectId,
      day: day(-3),
      sessionId: sessionId(),
      counts: { views: 4, optionChanges: 0, animations: 0, arOpens: 0, saves: 0 },
      choices: [],
    });

    const { status, body } = await analytics(share.projectId, `?from=${day(-3)}&to=${day(0)}&top=3`);
    expect(status).toBe(200);
    const zero = {
      ...{ views: 0, sessions: 0, optionChanges: 0, submissions: 0 },
      ...{ animations: 0, arOpens: 0, saves: 0, cartAdds: 0 },
    };
    expect(body).toEqual({
      success: true,
      from: day(-3),
      to: day(0),
      days: [
        { ...zero, date: day(-3), views: 4, sessions: 1 },
        { ...zero, date: day(-2) },
        { ...zero, date: day(-1) },
        {
          date: day(0),
          views: 2,
          sessions: 2,
          optionChanges: 4,
          submissions: 1,
          animations: 1,
          arOpens: 1,
          saves: 1,
          cartAdds: 2,
        },
      ],
      totals: {
        ...{ views: 6, sessions: 3, optionChanges: 4, submissions: 1 },
        ...{ animations: 1, arOpens: 1, saves: 1, cartAdds: 2 },
      },
      topChoices: [
        { blockId: 'seat', blockName: 'Seat', choiceId: 'walnut', label: 'Walnut', count: 2 },
        { blockId: 'legs', blockName: 'Legs', choiceId: 'brass', label: 'Brass', count: 1 },
        { blockId: 'seat', blockName: 'Seat', choiceId: 'oak', label: 'Oak', count: 1 },
      ],
      conversion: 0.3333,
    });

    // Labels are the current revision's; a choice that is gone has none.
    const scene = structuredClone(STOOL_SCENE);
    scene.optionBlocks[0].choices[1].label = 'Dark walnut';
    scene.optionBlocks[1].choices.pop();
    await ownerCall('PUT', `/projects/${share.projectId}`, {
      name: 'Stool',
      type: 'configurator',
      data: { models: [], sceneData: scene },
    });
    const relabelled = (await analytics(share.projectId, `?from=${day(0)}&to=${day(0)}`)).body;
    expect(relabelled.topChoices).toEqual([
      { blockId: 'seat', blockName: 'Seat', choiceId: 'walnut', label: 'Dark walnut', count: 2 },
      { blockId: 'legs', blockName: 'Legs', choiceId: 'brass', label: null, count: 1 },
      { blockId: 'seat', blockName: 'Seat', choiceId: 'oak', label: 'Oak', count: 1 },
    ]);
    expect(relabelled.conversion).toBe(0.5);
  });

  it('covers the last 30 days ending today by default; no sessions means no conversion', async () => {
    const share = await stoolShare();
    const { status, body } = await analytics(share.projectId);
    expect(status).toBe(200);
    expect(body.days).toHaveLength(30);
    expect(body.days[0].date).toBe(day(-29));
    expect(body.days[29].date).toBe(day(0));
    expect(body).toMatchObject({ from: day(-29), to: day(0), topChoices: [], conversion: null });
    expect((await analytics(share.projectId, `?from=${day(-365)}&to=${day(0)}`)).body.days).toHaveLength(366);
  });

  it('lets viewers read and hides another workspace’s project', async () => {
    const share = await stoolShare();
    const viewer = await server.member(owner.workspaceId, 'viewer@analytics.test', 'viewer');
    expect((await analytics(share.projectId, '', viewer)).status).toBe(200);
    const stranger = await server.person('stranger@analytics.test');
    const hidden = await analytics(share.projectId, '', stranger);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ success: false, error: 'not_found' });
  });

  it('refuses bad parameters with 400 invalid_request naming each', async () => {
    const share = await stoolShare();
    const cases: Array<[string, string]> = [
      ['?from=2026-02-30', 'querystring.from'],
      ['?from=yesterday', 'querystring.from'],
      ['?to=2026-13-01', 'querystring.to'],
      [`?from=${day(0)}&to=${day(-1)}`, 'querystring.from'],
      [`?from=${day(-366)}&to=${day(0)}`, 'querystring.from'],
      ['?top=0', 'querystring.top'],
      ['?top=51', 'querystring.top'],
      ['?top=1.5', 'querystring.top'],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await analytics(share.projectId, query);
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ success: false, error: 'invalid_request', details: [{ field }] });
    }
  });
});

describe('long ranges', () => {
  it('counts whole months and the days around them alike, before and after the sweep folds shards', async () => {
    const share = await stoolShare();
    // Days in whole months of the range (60 and 40 days ago) and in its partial months; each day
    // written by several calls, which land on random shards as concurrent pages do.
    const written: Array<[number, string, number]> = [
      [-200, 'walnut', 3],
      [-60, 'walnut', 5],
      [-40, 'oak', 4],
      [-3, 'oak', 2],
      [0, 'walnut', 1],
    ];
    for (const [offset, choiceId, calls] of written)
      for (let i = 0; i < calls; i++)
        await createVisitorCounterRepository(server.deps.db).addVisitorCounts({
          projectId: share.projectId,
          day: day(offset),
          sessionId: sessionId(),
          counts: { views: 1, optionChanges: 1, animations: 0, arOpens: 0, saves: 0 },
          choices: [{ blockId: 'seat', choiceId, count: 1 }],
        });
    const read = async () => (await analytics(share.projectId, `?from=${day(-365)}&to=${day(0)}`)).body;
    const expected = [
      { blockId: 'seat', blockName: 'Seat', choiceId: 'walnut', label: 'Walnut', count: 9 },
      { blockId: 'seat', blockName: 'Seat', choiceId: 'oak', label: 'Oak', count: 6 },
    ];
    const before = await read();
    expect(before.topChoices).toEqual(expected);
    expect(before.totals).toMatchObject({ views: 15, sessions: 15, optionChanges: 15 });
    // A range that starts and ends inside months reads only their days.
    const partial = (await analytics(share.projectId, `?from=${day(-61)}&to=${day(-39)}`)).body;
    expect(partial.topChoices.map((c: { count: number }) => c.count)).toEqual([5, 4]);

    const swept = await sweepVisitorEvents(server.deps.db, { retentionDays: 90 });
    expect(swept.folded).toBeGreaterThan(0);
    expect(await read()).toEqual(before);
    const { rows } = await server.deps.db.$client.query(
      `select (select count(*) from visitor_choice_counters where project_id = $1 and day < current_date
                 and shard <> 0)::int as days,
              (select count(*) from visitor_day_counters where project_id = $1 and day < current_date
                 and shard <> 0)::int as counters`,
      [share.projectId],
    );
    expect(rows[0]).toEqual({ days: 0, counters: 0 });
  });
});

describe('retention', () => {
  it('deletes visitor events past their retention and keeps other events and the counters', async () => {
    const share = await stoolShare();
    await send(share, sessionId(), [{ type: 'view', at: at(), data: {} }]);
    const db = server.deps.db.$client;
    await db.query(
      `insert into project_events (workspace_id, project_id, type, data, created_at)
       values ($1, $2, 'view', '{}', now() - interval '91 days'),
              ($1, $2, 'option.changed', '{}', now() - interval '91 days'),
              ($1, $2, 'project.updated', '{}', now() - interval '91 days')`,
      [owner.workspaceId, share.projectId],
    );
    const result = await sweepVisitorEvents(server.deps.db, { retentionDays: 90 });
    expect(result.events).toBeGreaterThanOrEqual(2);
    const { rows } = await db.query('select type from project_events where project_id = $1 order by type', [
      share.projectId,
    ]);
    expect(rows.map((r) => r.type)).toEqual(['project.published', 'project.updated', 'view']);
    expect((await analytics(share.projectId)).body.totals.views).toBe(1);
  });
});
