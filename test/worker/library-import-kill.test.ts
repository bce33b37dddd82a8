import { afterAll, beforeAll, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startTsProcess } from '../helpers/child-process.js';
import { startTestWorker, waitFor, workerEnv } from './submission-fixtures.js';
import { startFixtureLibraries, type FixtureLibraries } from '../../scripts/start/fixture-libraries/server.js';
import { freePort } from '../helpers/test-env.js';

/**
 * A worker killed mid-import: the job ends `failed` with `interrupted` once another worker finds it,
 * leaving no asset, stored file or temporary download.
 */
let libs: FixtureLibraries;
let server: TestServer;

beforeAll(async () => {
  libs = await startFixtureLibraries();
  server = await startTestServer(libs.env);
});
afterAll(async () => {
  await server?.close();
  await libs?.close();
});

it('ends an import whose worker was killed as interrupted, with nothing left', async () => {
  const owner = await server.person('killed@example.com');
  const env = {
    ...workerEnv(server.env.env, {
      ...libs.env,
      WORKER_LOCK_DURATION_MS: '2000',
      OUTBOX_RELAY_INTERVAL_MS: '200',
      WORKER_HEALTH_PORT: String(await freePort()),
    }),
    LOG_LEVEL: 'info',
  };
  const first = startTsProcess('worker/main.ts', env);
  try {
    await first.waitForOutput(/worker ready/, 60_000);
    // Connect the person's library_b account; the slow model streams 20 MB over about 30 s.
    const { url } = await (
      await fetch(`${server.url}/external-providers/library_b/connect`, { method: 'POST', headers: owner.headers })
    ).json();
    const callback = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    await fetch(callback, { redirect: 'manual' });
    const started = await fetch(`${server.url}/external-assets/imports`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'library_b', providerAssetId: 'd6a2b3c4d5e6f708192a3b4c5d6e7f89' }),
    });
    expect(started.status).toBe(202);
    const { job } = await started.json();
    const read = async () =>
      (await (await fetch(`${server.url}/external-assets/imports/${job.id}`, { headers: owner.headers })).json()).job;
    await waitFor(
      async () => {
        const j = await read();
        return j.status === 'downloading' && j.bytesReceived > 0 ? j : null;
      },
      'the download to start',
      60_000,
    );
    const tempDir = path.join(tmpdir(), 'config-share-imports', job.id);
    expect((await readdir(tempDir)).length).toBeGreaterThan(0);

    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startTestWorker(server.env.env, {
      ...libs.env,
      WORKER_LOCK_DURATION_MS: '2000',
      OUTBOX_RELAY_INTERVAL_MS: '200',
    });
    try {
      const done = await waitFor(
        async () => {
          const j = await read();
          return j.status === 'failed' || j.status === 'completed' ? j : null;
        },
        'the killed import to end',
        60_000,
      );
      expect(done).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
      expect(done.assetId).toBeNull();
    } finally {
      await second.close(2000);
    }
    const { rows } = await server.deps.db.$client.query(
      'select count(*)::int as n from assets where workspace_id = $1',
      [owner.workspaceId],
    );
    expect(rows[0].n).toBe(0);
    await expect(readdir(tempDir)).rejects.toThrow();
    const stored = await readdir(path.join(server.env.storageDir, 'workspaces', owner.workspaceId, 'assets')).catch(
      () => [],
    );
    expect(stored).toEqual([]);
    const { rows: outbox } = await server.deps.db.$client.query(
      'select count(*)::int as n from outbox where job_id = $1',
      [`imp_${job.id}`],
    );
    expect(outbox[0].n).toBe(0);
  } finally {
    await first.stop();
  }
}, 180_000);
