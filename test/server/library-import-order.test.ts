import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestPerson } from '../helpers/test-server.js';
import { startTestWorker, waitFor } from '../worker/submission-fixtures.js';
import { startFixtureLibraries, type FixtureLibraries } from '../../scripts/start/fixture-libraries/server.js';
import type { WorkerApp } from '../../worker/app.js';

/**
 * An import decides in the order of docs/libraries.md (rate, body, library set up, model read, licence, reuse, seat,
 * library_b account, plan, size, imports running): each test trips two neighbouring checks and expects the earlier.
 */
let libs: FixtureLibraries;
let server: TestServer;
let worker: WorkerApp;
let owner: TestPerson;

const CHAIR_B = 'b1a2b3c4d5e6f708192a3b4c5d6e7f80'; // CC BY, held by the owner's workspace below
const CC0_B = 'c0a1b2c3d4e5f60718293a4b5c6d7e8f';
const BY_NC_B = 'e1a2b3c4d5e6f708192a3b4c5d6e7f81';
const BY_NC_NO_DOWNLOAD_B = 'd7a2b3c4d5e6f708192a3b4c5d6e7f8a';
const UNKNOWN_B = '0000b3c4d5e6f708192a3b4c5d6e7f00';
const HUGE_B = '4737a3b84e00415b9d8bb42ae44285b2'; // CC BY, reports 86 MB

beforeAll(async () => {
  libs = await startFixtureLibraries();
  server = await startTestServer({ ...libs.env, RATE_LIMIT_IMPORT: '1000/10m' });
  worker = await startTestWorker(server.env.env, { ...libs.env, OUTBOX_RELAY_INTERVAL_MS: '200' });
  owner = await server.person('order-owner@example.com');
  await connect(owner);
  const started = await post({ provider: 'library_b', providerAssetId: CHAIR_B, acknowledgeLicense: true });
  expect(started.status).toBe(202);
  await waitFor(
    async () => {
      const response = await fetch(`${server.url}/external-assets/imports/${started.body.job.id}`, {
        headers: owner.headers,
      });
      const { job } = await response.json();
      return job.status === 'completed' ? job : null;
    },
    'the owner holds CHAIR_B',
    60_000,
  );
});
afterAll(async () => {
  await worker?.close(2000);
  await server?.close();
  await libs?.close();
});

async function post(body: unknown, person = owner, target = server) {
  const response = await fetch(`${target.url}/external-assets/imports`, {
    method: 'POST',
    headers: { ...person.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function expectAnswer(body: unknown, status: number, code: string | null, person = owner, target = server) {
  const answer = await post(body, person, target);
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  if (code) expect(answer.body.error).toBe(code);
  return answer;
}

/** Connects `person`'s library_b account through the OAuth flow, as a browser would. */
async function connect(person: TestPerson, target = server) {
  const started = await fetch(`${target.url}/external-providers/library_b/connect`, {
    method: 'POST',
    headers: person.headers,
  });
  const { url } = await started.json();
  const callback = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
  expect((await fetch(callback, { redirect: 'manual' })).headers.get('location')).toMatch(/status=connected/);
}

describe('the order of the import checks', () => {
  it('rate before body, body before the library set up, the library set up before the model read', async () => {
    const bare = await startTestServer({
      ...libs.env,
      LIBRARY_B_CLIENT_ID: '',
      LIBRARY_B_CLIENT_SECRET: '',
      RATE_LIMIT_IMPORT: '2/10m',
    });
    try {
      const hasty = await bare.person('hasty@example.com');
      await expectAnswer({ provider: 'library_a' }, 400, 'invalid_request', hasty, bare);
      await expectAnswer({ provider: 'library_a' }, 400, 'invalid_request', hasty, bare);
      await expectAnswer({ provider: 'library_a' }, 429, 'rate_limited', hasty, bare);

      const person = await bare.person('bare-order@example.com');
      await expectAnswer({ provider: 'library_b' }, 400, 'invalid_request', person, bare);
      await expectAnswer(
        { provider: 'library_b', providerAssetId: UNKNOWN_B },
        503,
        'provider_not_configured',
        person,
        bare,
      );
    } finally {
      await bare.close();
    }
  });

  it('the model read before its licence, the licence before a person without a library_b account', async () => {
    const stranger = await server.person('order-stranger@example.com');
    await expectAnswer({ provider: 'library_b', providerAssetId: UNKNOWN_B }, 404, 'not_found', stranger);
    await expectAnswer(
      { provider: 'library_b', providerAssetId: BY_NC_NO_DOWNLOAD_B },
      422,
      'not_importable',
      stranger,
    );
    await expectAnswer({ provider: 'library_b', providerAssetId: BY_NC_B }, 403, 'license_blocked', stranger);
  });

  it('the licence before reuse, reuse before the seat and before the library_b account', async () => {
    const editor = await server.member(owner.workspaceId, 'order-editor@example.com', 'editor');
    const viewer = await server.member(owner.workspaceId, 'order-viewer@example.com', 'viewer');
    await expectAnswer({ provider: 'library_b', providerAssetId: CHAIR_B }, 409, 'license_ack_required', editor);
    for (const teammate of [editor, viewer]) {
      const reused = await expectAnswer(
        { provider: 'library_b', providerAssetId: CHAIR_B, acknowledgeLicense: true },
        200,
        null,
        teammate,
      );
      expect(reused.body).toMatchObject({ success: true, reused: true });
    }
  });

  it('the seat before the library_b account, the account before the plan, the plan before the size', async () => {
    const viewer = await server.member(owner.workspaceId, 'order-viewer-2@example.com', 'viewer');
    await expectAnswer({ provider: 'library_b', providerAssetId: CC0_B }, 403, 'forbidden', viewer);

    const full = await server.person('order-full@example.com');
    await server.deps.db.$client.query('update workspaces set model_limit = 0 where id = $1', [full.workspaceId]);
    await expectAnswer({ provider: 'library_b', providerAssetId: CC0_B }, 409, 'auth_required', full);
    await connect(full);
    await expectAnswer(
      { provider: 'library_b', providerAssetId: HUGE_B, acknowledgeLicense: true },
      403,
      'quota_exceeded',
      full,
    );
  });

  it('the size before the imports running', async () => {
    // No worker takes these jobs: they stay queued.
    const idle = await startTestServer({ ...libs.env, QUEUE_PREFIX: `idle-order-${Date.now()}` });
    try {
      const person = await idle.person('order-busy@example.com');
      await connect(person, idle);
      for (const id of ['wooden_chair_01', 'side_table_01', 'horse_statue_01'])
        await expectAnswer({ provider: 'library_a', providerAssetId: id }, 202, null, person, idle);
      await expectAnswer(
        { provider: 'library_a', providerAssetId: 'wooden_crate_01' },
        429,
        'too_many_imports',
        person,
        idle,
      );
      await expectAnswer(
        { provider: 'library_b', providerAssetId: HUGE_B, acknowledgeLicense: true },
        413,
        'too_large',
        person,
        idle,
      );
    } finally {
      await idle.close();
    }
  });
});
