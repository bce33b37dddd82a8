import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, freePort, TEST_SECRETS, type TestEnv } from '../helpers/test-env.js';
import { startTsProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { ensureTestPerson } from '../helpers/people.js';
import { chairGlb, uploadForm } from '../helpers/model-fixtures.js';
import {
  FORM_FIELDS,
  OPTION_BLOCKS,
  dataUrl,
  png,
  validBody,
  waitFor,
  workerEnv,
} from '../worker/submission-fixtures.js';
import { createDb, type Db } from '#core/platform/db/client.js';
import { createStorage, type StorageDriver } from '#core/platform/storage/index.js';
import { issueAccessToken } from '#core/platform/tokens.js';
import { loadServerConfig } from '../../server/config.js';
import { loadWorkerConfig } from '../../worker/config.js';

/**
 * Two servers, workers and BFFs as separate processes on one Postgres, Redis and S3 bucket behave as one: one row, PDF
 * and e-mail per request wherever it lands; SIGKILL on a worker loses nothing; SIGTERM on a server finishes its work.
 */
const PUBLIC = { apikey: TEST_SECRETS.PUBLIC_ANON_KEY, authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}` };
const OWNER_EMAIL = 'owner@scale.test';

let s3: TestS3Server;
let smtp: SmtpCatcher;
let env: TestEnv;
let db: Db;
let bucket: StorageDriver;
let ownerHeaders: Record<string, string>;
const processes: ChildProcessHandle[] = [];
const servers: Array<{ url: string; handle: ChildProcessHandle }> = [];
const bffs: string[] = [];
const workers: Array<{ health: string; handle: ChildProcessHandle }> = [];
let share: { projectId: string; token: string };

async function waitUntilReady(url: string, handle: ChildProcessHandle) {
  await waitFor(
    () =>
      fetch(`${url}/ready`).then(
        (res) => res.status === 200,
        () => false,
      ),
    `${url}/ready`,
    60_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${handle.output()}`);
  });
}

async function startServer(commonEnv: Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const handle = startTsProcess('server/main.ts', { ...commonEnv, PORT: String(port), PUBLIC_BASE_URL: url });
  processes.push(handle);
  await waitUntilReady(url, handle);
  return { url, handle };
}

async function startWorkerProcess(commonEnv: Record<string, string>) {
  const port = await freePort();
  const handle = startTsProcess('worker/main.ts', workerEnv(commonEnv, { WORKER_HEALTH_PORT: String(port) }));
  processes.push(handle);
  const health = `http://127.0.0.1:${port}`;
  await waitUntilReady(health, handle);
  return { health, handle };
}

async function startBff(commonEnv: Record<string, string>, upstream: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const handle = startTsProcess('bff/main.ts', { ...commonEnv, BFF_PORT: String(port), BFF_UPSTREAM_URL: upstream });
  processes.push(handle);
  await waitUntilReady(url, handle);
  return url;
}

async function owner(method: string, url: string, body?: unknown) {
  const isForm = body instanceof FormData;
  const res = await fetch(url, {
    method,
    headers: { ...ownerHeaders, ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const json = await res.json();
  expect(res.status, `${method} ${url}: ${JSON.stringify(json)}`).toBeLessThan(300);
  return json;
}

const submitThrough = (base: string, body: unknown = validBody({ screenshots: [dataUrl('image/png', png())] })) =>
  fetch(`${base}/share/${share.projectId}/${share.token}/submit`, {
    method: 'POST',
    headers: { ...PUBLIC, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

interface RequestRow {
  id: string;
  pdf_key: string | null;
}
const requestRows = async (): Promise<RequestRow[]> =>
  (await db.$client.query<RequestRow>('select id, pdf_key from submissions where project_id = $1', [share.projectId]))
    .rows;

/** Resolves once every step of each request is done; the rows. */
async function allDone(count: number, timeoutMs = 90_000): Promise<RequestRow[]> {
  return waitFor(
    async () => {
      const rows = await requestRows();
      if (rows.length < count) return null;
      const { rows: open } = await db.$client.query<{ n: number }>(
        `select count(*)::int as n from submission_steps s join submissions r on r.id = s.submission_id where ` +
          `r.project_id = $1 and s.state <> 'done'`,
        [share.projectId],
      );
      return open[0]!.n === 0 ? rows : null;
    },
    `${count} requests with every step done`,
    timeoutMs,
  );
}

const mailsFor = (requestId: string) =>
  smtp.messages.filter((m) => m.headers.get('x-config-share-request') === requestId).length;

beforeAll(async () => {
  [s3, smtp] = await Promise.all([startS3Server(), startSmtpCatcher()]);
  env = await createTestEnv({ ...s3.env });
  const commonEnv = {
    ...env.env,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_SUBMIT: '10000/1m',
    RATE_LIMIT_SHARE_READ: '10000/1m',
    RATE_LIMIT_UPLOAD: '1000/1m',
    SHUTDOWN_TIMEOUT_MS: '15000',
  };
  db = createDb(env.databaseUrl, 2);
  bucket = createStorage(loadWorkerConfig(commonEnv));
  const person = await ensureTestPerson(db, `test|${OWNER_EMAIL}`, OWNER_EMAIL);
  ownerHeaders = {
    authorization: `Bearer ${await issueAccessToken(loadServerConfig(commonEnv).auth, person.subject, OWNER_EMAIL)}`,
  };

  servers.push(...(await Promise.all([startServer(commonEnv), startServer(commonEnv)])));
  workers.push(...(await Promise.all([startWorkerProcess(commonEnv), startWorkerProcess(commonEnv)])));
  bffs.push(...(await Promise.all(servers.map((s) => startBff(commonEnv, s.url)))));

  const { project } = await owner('POST', `${servers[0]!.url}/projects`, {
    name: 'Scaled chair',
    type: 'configurator',
    data: {
      models: [],
      sceneData: {
        formFields: FORM_FIELDS,
        optionBlocks: OPTION_BLOCKS,
        projectSettings: { emailAdminAddress: OWNER_EMAIL },
      },
    },
  });
  const { settings } = await owner('PUT', `${servers[1]!.url}/projects/${project.id}/share`, { isEnabled: true });
  share = { projectId: project.id, token: settings.shareToken };
}, 180_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await bucket?.close();
  await db?.$client.end();
  await Promise.all([s3?.close(), smtp?.close(), env?.cleanup()]);
});

describe('two servers, two workers and two BFFs on one Postgres, Redis and bucket', () => {
  it('serves a file written through one server from the other', async () => {
    const { asset } = await owner('POST', `${servers[0]!.url}/assets`, uploadForm(await chairGlb(), 'chair.glb'));
    const onOther = new URL(asset.url.replace(servers[0]!.url, servers[1]!.url));
    const redirect = await fetch(onOther, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const bytes = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
    expect(bytes.equals(Buffer.from(await chairGlb()))).toBe(true);
  });

  it('answers the public read through either BFF with the same payload and ETag', async () => {
    const reads = await Promise.all(bffs.map((bff) => fetch(`${bff}/share/${share.projectId}/${share.token}`)));
    expect(reads.map((r) => r.status)).toEqual([200, 200]);
    expect(reads[0]!.headers.get('etag')).toBe(reads[1]!.headers.get('etag'));
  });

  it('turns 50 submissions spread over both servers into exactly 50 requests, 50 PDFs and 50 e-mails', async () => {
    const answers = [];
    for (let batch = 0; batch < 5; batch++) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 10 }, (_, i) => submitThrough(bffs[(batch * 10 + i) % 2]!)))),
      );
    }
    const bodies = await Promise.all(answers.map(async (res) => ({ status: res.status, body: await res.json() })));
    expect(bodies.map((b) => b.status)).toEqual(Array(50).fill(200));
    const ids = new Set(bodies.map((b) => b.body.requestId as string));
    expect(ids.size).toBe(50);

    const rows = await allDone(50);
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((r) => r.id))).toEqual(ids);
    for (const row of rows) {
      expect(row.pdf_key).toBeTruthy();
      expect(await bucket.head(row.pdf_key!)).toMatchObject({ contentType: 'application/pdf' });
    }
    await smtp.waitForMessages(50, 30_000);
    // Settled: nothing more arrives, and each request has exactly one e-mail.
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.messages).toHaveLength(50);
    for (const id of ids) expect(mailsFor(id)).toBe(1);
  }, 180_000);

  it('loses nothing when a worker is killed with SIGKILL mid-run', async () => {
    const before = (await requestRows()).length;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => submitThrough(bffs[i % 2]!)));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
    const ids = await Promise.all(answers.map(async (r) => (await r.json()).requestId as string));
    // Mid-run: steps of these requests are being taken while the worker dies.
    await waitFor(async () => {
      const { rows } = await db.$client.query<{ n: number }>(
        `select count(*)::int as n from submission_steps where submission_id = any($1::uuid[]) and state = 'done'`,
        [ids],
      );
      return rows[0]!.n > 0;
    }, 'the first step done');
    workers[0]!.handle.child.kill('SIGKILL');
    expect((await workers[0]!.handle.exited).signal).toBe('SIGKILL');

    const rows = await allDone(before + 12);
    for (const id of ids) {
      const row = rows.find((r) => r.id === id)!;
      expect(await bucket.head(row.pdf_key!)).not.toBeNull();
      // At least one e-mail each (a kill between the SMTP answer and the commit may send one twice).
      await waitFor(async () => mailsFor(id) >= 1, `the e-mail of ${id}`);
    }
  }, 180_000);

  it('finishes the requests in flight when a server gets SIGTERM, then exits 0', async () => {
    const target = servers[1]!;
    const body = JSON.stringify(validBody());
    const url = new URL(`${target.url}/share/${share.projectId}/${share.token}/submit`);
    // A request whose body is still arriving when the signal comes.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          headers: { ...PUBLIC, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      request.on('error', reject);
      request.write(body.slice(0, 20));
      setTimeout(() => {
        target.handle.child.kill('SIGTERM');
        setTimeout(() => request.end(body.slice(20)), 500);
      }, 500);
    });
    const res = await answer;
    expect(res.status, res.body).toBe(200);
    const { requestId } = JSON.parse(res.body);
    expect((await db.$client.query('select 1 from submissions where id = $1', [requestId])).rowCount).toBe(1);
    expect(await target.handle.exited).toEqual({ code: 0, signal: null });
    // The other server goes on serving.
    expect((await submitThrough(servers[0]!.url)).status).toBe(200);
  }, 60_000);

  it('stops a worker on SIGTERM with exit 0, its health port closing with it', async () => {
    const survivor = workers[1]!;
    expect((await fetch(`${survivor.health}/ready`)).status).toBe(200);
    survivor.handle.child.kill('SIGTERM');
    expect(await survivor.handle.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${survivor.health}/health`)).rejects.toThrow();
  }, 60_000);
});
