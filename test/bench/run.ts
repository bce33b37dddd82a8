/**
 * `npm run bench`: each row next to an anchor measured the same way in the same run. Compare ratios, not
 * absolutes: the load generator and the server share the cores.
 */
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, applyMigrations } from '#core/platform/db/client.js';
import { loadServerConfig } from '../../server/config.js';
import { ensureTestPerson } from '../helpers/people.js';
import { issueAccessToken } from '#core/platform/tokens.js';
import { TEST_SECRETS, freePort } from '../helpers/test-env.js';
import { ensureConsoleBuilt, ensureElementBuilt } from '../../scripts/start/element-build.js';
import { measureElement } from './element-first-frame.js';
import { measureOptionChange, printOptionChange } from './option-change.js';
import { measurePreviewRoundTrip, printPreviewRoundTrip } from './preview-round-trip.js';
import { measureReadScaleOut, measureUploads } from './scale-out.js';
import { benchWebhooks } from './webhook-deliveries.js';
import { benchLibraries, printLibraries } from './libraries.js';
import { benchModelOutline, printModelOutline } from './model-outline.js';
import { benchStartup, printStartup } from './startup.js';
import { benchSoak, printSoak } from './soak.js';
import { benchAnalytics, benchVisitorEvents, printAnalytics, printVisitorEvents } from './visitor-events.js';
import { benchCartConfigurations, printCartConfigurations } from './cart-configurations.js';
import { benchDeliveryFiles, printDeliveryFiles } from './delivery-files.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
// 50 connections: how the issue measured the public read and bare Fastify from outside.
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Alternating rounds of each read and its anchor (BENCH_ROUNDS, default 3). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** `BENCH_ONLY=element`: only the element's rows (loader size, first frame), no throughput runs. */
const ELEMENT_ONLY = process.env.BENCH_ONLY === 'element';
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/**
 * `BENCH_ONLY=webhooks|libraries|outline|scale-out|bff|startup|options|preview|events|cart|analytics|delivery|soak`
 * runs that benchmark alone (element: above).
 */
const ONLY = process.env.BENCH_ONLY;

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function waitFor(url: string, child: ChildProcess) {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited during start`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * Throws unless the anchor at `url` gives the BFF's two answers (200 and, for its ETag, 304): the same status and
 * headers, RateLimit-Remaining aside (it counts down).
 */
async function sameAnswers(
  url: string,
  etag: string,
  expected: Record<'full' | 'notModified', { status: number; headers: Record<string, string> }>,
) {
  const perRequest = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'ratelimit-remaining'];
  const shape = (status: number, headers: Iterable<[string, string]>) =>
    JSON.stringify([status, [...headers].filter(([name]) => !perRequest.includes(name)).sort()]);
  for (const [kind, headers] of [
    ['full', {}],
    ['notModified', { 'if-none-match': etag }],
  ] as const) {
    const answer = await fetch(url, { headers });
    await answer.arrayBuffer();
    const want = shape(expected[kind].status, Object.entries(expected[kind].headers));
    const got = shape(answer.status, answer.headers);
    if (got !== want) throw new Error(`the anchor's ${kind} answer differs from the BFF's: ${got} vs ${want}`);
  }
}

/** Answers that are neither 2xx nor 3xx. */
function unexpected(result: Result): number {
  return Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !/^[23]/.test(code))
    .reduce((n, [, stats]) => n + (stats as { count: number }).count, 0);
}

function printWebhooks(result: Awaited<ReturnType<typeof benchWebhooks>>) {
  console.log(
    `\nwebhook deliveries (worker process, 10 webhooks per event, median of ${result.rounds} alternating rounds ` +
      `with the ceiling)\n`,
  );
  console.log('| scenario | deliveries/s | ceiling: bare undici loop, same signed bodies | pipeline / ceiling |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| backlog drained | ${Math.round(result.deliveriesPerSecond)} | ${Math.round(result.ceilingPerSecond)} | ` +
      `${result.ratio.toFixed(2)}x |`,
  );
  const cpu = result.cpuPerDelivery;
  const us = (value: number) => `${Math.round(value)} µs`;
  console.log(
    `\nCPU time per delivery while draining (steadier than throughput on shared cores): worker ${us(cpu.worker)}, ` +
      `Postgres ${us(cpu.postgres)}, Redis ${us(cpu.redis)}, sink ${us(cpu.sink)}; total ` +
      `${us(cpu.worker + cpu.postgres + cpu.redis + cpu.sink)}`,
  );
  console.log(
    `CPU time per request of the ceiling: the loop ${us(result.ceilingCpuPerRequest.loop)}, sink ` +
      `${us(result.ceilingCpuPerRequest.sink)}`,
  );
  console.log(
    `\nfirst-attempt latency at a steady ${Math.round(result.paceDeliveriesPerSecond)} deliveries/s (event ` +
      `createdAt to receiver): p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms`,
  );
}

async function main() {
  // Files and processes of its own: no database, no server.
  if (ONLY === 'outline') {
    printModelOutline(await benchModelOutline());
    return;
  }
  const dbName = `cs_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const storageDir = await mkdtemp(path.join(tmpdir(), 'cs-bench-'));
  const port = await freePort();
  // Chosen before the server starts: the BFF serves the console, whose origin the API must allow (CONSOLE_ORIGINS).
  const bffPort = await freePort();
  const env: Record<string, string> = {
    ...TEST_SECRETS,
    DATABASE_URL: withDatabase(base, dbName),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `cs-bench-${dbName}`,
    STORAGE_DIR: storageDir,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    CONSOLE_ORIGINS: `http://127.0.0.1:${bffPort}`,
    LOG_LEVEL: 'warn',
    // The benchmark measures throughput, not the limiter.
    RATE_LIMIT_SHARE_READ: '100000000/5m',
    RATE_LIMIT_SUBMIT: '100000000/5m',
    RATE_LIMIT_EVENTS: '100000000/5m',
    RATE_LIMIT_CONFIGURATIONS: '100000000/5m',
    CART_SIGNING_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
    // The webhook benchmark delivers to a local sink.
    WEBHOOK_ALLOW_INSECURE: '1',
  };
  const config = loadServerConfig(env);
  const db = createDb(config.databaseUrl, 2);
  await applyMigrations(db);
  const person = await ensureTestPerson(db, 'bench|owner', 'bench@example.com', 1000);
  const token = await issueAccessToken(config.auth, person.subject, person.email);
  // Twenty assets to sign; the files need not exist for signing.
  const { rows: assetRows } = await db.$client.query<{ id: string }>(
    `INSERT INTO assets (workspace_id, name, file_name, storage_key, size_bytes, source_format, model_info)
     SELECT $1::uuid, 'a' || g, 'a' || g || '.glb', 'workspaces/' || $1::text || '/assets/a' || g || '.glb',
            1000, 'glb', '{}'::jsonb
     FROM generate_series(1, 20) g RETURNING id`,
    [person.defaultWorkspaceId],
  );

  const tsx = path.resolve('node_modules/.bin/tsx');
  // The start-up benchmark and the soak spawn their own processes.
  const child =
    ONLY === 'startup' || ONLY === 'soak'
      ? null
      : spawn(tsx, ['server/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const api = `http://127.0.0.1:${port}`;
  let bare: ChildProcess | null = null;
  let bff: ChildProcess | null = null;
  try {
    if (!child && ONLY === 'soak') {
      const soak = await benchSoak({
        env,
        seconds: Number(process.env.SOAK_SECONDS ?? 60),
        readConnections: Number(process.env.SOAK_CONNECTIONS ?? 1000),
        submitsPerSecond: Number(process.env.SOAK_SUBMITS_PER_SECOND ?? 20),
      });
      if (!printSoak(soak)) process.exitCode = 1;
      return;
    }
    if (!child) {
      printStartup(await benchStartup({ env, rounds: ROUNDS }));
      return;
    }
    await waitFor(`${api}/health`, child);
    const owner = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    if (ONLY === 'libraries') {
      printLibraries(await benchLibraries({ env, token }));
      return;
    }
    if (ONLY === 'analytics') {
      if (!printAnalytics(await benchAnalytics({ api, db, ownerHeaders: owner }))) process.exitCode = 1;
      return;
    }
    if (ONLY === 'webhooks') {
      printWebhooks(
        await benchWebhooks({
          env,
          db,
          workspaceId: person.defaultWorkspaceId!,
          api,
          ownerHeaders: owner,
          rounds: ROUNDS,
        }),
      );
      return;
    }
    const model = (i: number) => ({
      id: `m${i}`,
      fileName: `part-${i}.glb`,
      assetId: assetRows[i % assetRows.length].id,
      position: [i, 0, 0],
      rotation: [0, 0, 0],
      scale: [1, 1, 1],
      transform: { position: [i, 0, 0] },
      partTransforms: { [`node${i}`]: { position: [0, 1, 0] } },
      deletedParts: [],
      pivotData: { x: 0, y: 0, z: 0 },
    });
    const sceneData = {
      projectSettings: { brandColor: '#0a7', smtpPassword: 'x', emailAdminAddress: 'owner@example.com' },
      formFields: [{ id: 'email', label: 'E-mail', type: 'email', required: true }],
      optionBlocks: [],
    };
    const projects: Record<string, { id: string; token: string }> = {};
    for (const [label, count] of [
      ['1 model', 1],
      ['500 models', 500],
    ] as const) {
      const created = await (
        await fetch(`${api}/projects`, {
          method: 'POST',
          headers: owner,
          body: JSON.stringify({
            name: label,
            type: 'configurator',
            data: { models: Array.from({ length: count }, (_, i) => model(i)), sceneData },
          }),
        })
      ).json();
      const share = await (
        await fetch(`${api}/projects/${created.project.id}/share/enable`, {
          method: 'POST',
          headers: { authorization: owner.authorization },
        })
      ).json();
      projects[label] = { id: created.project.id, token: share.settings.shareToken };
    }
    const publicHeaders = { apikey: env.PUBLIC_ANON_KEY, authorization: `Bearer ${env.PUBLIC_ANON_KEY}` };
    /**
     * Scale-out: the same read through one and through two server processes; a 20 MB upload on local disk and on S3.
     */
    const scaleOutRows = async (sharePath: string) => {
      const scale = await measureReadScaleOut({
        env,
        firstServer: api,
        sharePath,
        headers: publicHeaders,
        connections: CONNECTIONS,
        duration: DURATION,
      });
      const uploads = await measureUploads({ env, localServer: api, ownerHeaders: owner });
      console.log('\n| scale-out | figure | anchor | ratio |');
      console.log('|---|---:|---:|---:|');
      const oneServer = scale.oneServer.requests.average;
      const twoServers = scale.twoServers.requests.average;
      console.log(
        `| read 200, 1 model, ${CONNECTIONS} conn.: two server processes | ${Math.round(twoServers)} req/s (p99 ` +
          `${scale.twoServers.latency.p99} ms) | one server process: ${Math.round(oneServer)} req/s (p99 ` +
          `${scale.oneServer.latency.p99} ms) | ${(twoServers / Math.max(oneServer, 0.001)).toFixed(2)}x |`,
      );
      const mb = (uploads.bytes / 1024 / 1024).toFixed(1);
      console.log(
        `| upload of a ${mb} MB model (POST /assets, median of 3): local disk | ${Math.round(uploads.localMs)} ms ` +
          `| – | – |`,
      );
      console.log(
        `| upload of a ${mb} MB model (POST /assets, median of 3): S3 (s3rver) | ${Math.round(uploads.s3Ms)} ms | ` +
          `local disk: ${Math.round(uploads.localMs)} ms | ${(uploads.s3Ms / uploads.localMs).toFixed(2)}x |`,
      );
      console.log(
        `| bare S3 PutObject of the same bytes (the store's own cost) | ${Math.round(uploads.putObjectMs)} ms | – ` +
          `| – |`,
      );
      for (const [name, result] of [
        ['read, one server', scale.oneServer],
        ['read, two servers', scale.twoServers],
      ] as const) {
        if (unexpected(result) > 0 || result.errors + result.timeouts > 0) {
          console.error(`\n${name}: answers other than 2xx/3xx or errors: ${JSON.stringify(result.statusCodeStats)}`);
          process.exitCode = 1;
        }
      }
    };
    if (ONLY === 'scale-out') {
      await scaleOutRows(`/share/${projects['1 model'].id}/${projects['1 model'].token}`);
      return;
    }

    // The BFF: its cache is measured below, and it serves the element and the console to Chromium.
    // BENCH_PROFILE_DIR: the BFF writes a V8 CPU profile there when it exits (chrome://inspect, speedscope).
    const profile = process.env.BENCH_PROFILE_DIR;
    // BENCH_BFF_NODE_ARGS: Node flags for the BFF (`--trace-gc`, say; its stdout is then shown).
    const bffNodeArgs = process.env.BENCH_BFF_NODE_ARGS?.split(' ') ?? [];
    bff = spawn(
      profile ? process.execPath : tsx,
      [
        ...bffNodeArgs,
        ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, '--import', 'tsx', 'bff/main.ts'] : ['bff/main.ts']),
      ],
      {
        env: { ...process.env, ...env, BFF_PORT: String(bffPort), BFF_UPSTREAM_URL: api },
        stdio: ['ignore', bffNodeArgs.length > 0 ? 'inherit' : 'ignore', 'inherit'],
      },
    );
    const bffUrl = `http://127.0.0.1:${bffPort}`;
    await waitFor(`${bffUrl}/health`, bff);
    if (ONLY === 'options') {
      await ensureElementBuilt((line) => console.error(line));
      printOptionChange(await measureOptionChange({ apiUrl: api, bffUrl, ownerHeaders: owner }));
      return;
    }
    const deliveryRows = async () => {
      await ensureElementBuilt((line) => console.error(line));
      if (!printDeliveryFiles(await benchDeliveryFiles({ env, apiUrl: api, bffUrl, ownerHeaders: owner })))
        process.exitCode = 1;
    };
    if (ONLY === 'delivery') {
      await deliveryRows();
      return;
    }
    const previewRows = async () => {
      const say = (line: string) => console.error(line);
      await Promise.all([ensureElementBuilt(say), ensureConsoleBuilt(say)]);
      printPreviewRoundTrip(await measurePreviewRoundTrip({ apiUrl: api, bffUrl, ownerHeaders: owner }));
    };
    if (ONLY === 'preview') {
      await previewRows();
      return;
    }
    const visitorEventRows = async () => {
      const events = await benchVisitorEvents({
        api,
        bffUrl,
        db,
        ownerHeaders: owner,
        connections: CONNECTIONS,
        duration: DURATION,
        rounds: ROUNDS,
      });
      if (!printVisitorEvents(events)) process.exitCode = 1;
    };
    if (ONLY === 'events') {
      await visitorEventRows();
      return;
    }
    const cartRows = async () => {
      const rounds = await benchCartConfigurations({
        api,
        bffUrl,
        ownerHeaders: owner,
        duration: DURATION,
        rounds: ROUNDS,
      });
      if (!printCartConfigurations(rounds)) process.exitCode = 1;
    };
    if (ONLY === 'cart') {
      await cartRows();
      return;
    }

    if (!ELEMENT_ONLY) {
      // The anchor serves the very bytes (and content-type, ETag) the public read answered.
      const reads: Record<string, { url: string; etag: string; bytes: number; barePath: string }> = {};
      const bareRoutes: Record<
        string,
        { status: number; file?: string; headers: Record<string, string>; notModified?: Record<string, string> }
      > = {};
      for (const [index, label] of Object.keys(projects).entries()) {
        const { id, token: shareToken } = projects[label];
        const url = `${api}/share/${id}/${shareToken}`;
        const first = await fetch(url, { headers: publicHeaders });
        const body = Buffer.from(await first.arrayBuffer());
        const etag = first.headers.get('etag') ?? '';
        const file = path.join(storageDir, `bare-${index}.json`);
        await writeFile(file, body);
        const barePath = `/read-200/${index}`;
        bareRoutes[barePath] = {
          status: 200,
          file,
          headers: { 'content-type': first.headers.get('content-type') ?? 'application/json', etag },
        };
        reads[label] = { url, etag, bytes: body.byteLength, barePath };
      }
      bareRoutes['/read-304'] = { status: 304, headers: { etag: Object.values(reads)[0].etag } };
      // The anchor answers the BFF's exact status, headers and body (and its 304), so the ratio measures
      // the BFF's work, not the bytes of its headers.
      const bffRead = `${bffUrl}/share/${projects['1 model'].id}/${projects['1 model'].token}`;
      const bffAnswer = async (headers: Record<string, string>) => {
        let answer = await fetch(bffRead, { headers });
        for (let i = 0; i < 3; i++) answer = await fetch(bffRead, { headers });
        const perConnection = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];
        return {
          status: answer.status,
          headers: Object.fromEntries([...answer.headers].filter(([name]) => !perConnection.includes(name))),
          body: Buffer.from(await answer.arrayBuffer()),
        };
      };
      const bffAnswers = {
        full: await bffAnswer({}),
        notModified: await bffAnswer({ 'if-none-match': reads['1 model'].etag }),
      };
      const bffFile = path.join(storageDir, 'bare-bff.json');
      await writeFile(bffFile, bffAnswers.full.body);
      bareRoutes['/bff'] = {
        status: bffAnswers.full.status,
        file: bffFile,
        headers: bffAnswers.full.headers,
        notModified: bffAnswers.notModified.headers,
      };
      const barePort = await freePort();
      bare = spawn(
        profile ? process.execPath : tsx,
        profile
          ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, '--import', 'tsx', 'test/bench/bare-fastify.ts']
          : ['test/bench/bare-fastify.ts'],
        {
          env: { ...process.env, BARE_PORT: String(barePort), BARE_ROUTES: JSON.stringify(bareRoutes) },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      const bareUrl = `http://127.0.0.1:${barePort}`;
      await waitFor(`${bareUrl}/ready`, bare);
      await sameAnswers(`${bareUrl}/bff`, reads['1 model'].etag, bffAnswers);

      const measure = async (opts: autocannon.Options) => {
        // A short warm-up first, so JIT and connection pools do not colour the figures.
        await autocannon({ connections: CONNECTIONS, duration: 1, ...opts });
        return autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
      };
      const rows: Array<{ name: string; result: Result; anchor?: Result; ratio?: number }> = [];
      const run = async (name: string, opts: autocannon.Options) => {
        rows.push({ name, result: await measure(opts) });
      };
      /**
       * A read next to its anchor, alternating ROUNDS times (server, anchor, server, ...) so that a
       * noisy moment on these shared cores hits both; the row keeps the round with the median ratio.
       */
      /** Rows also measured against bare Fastify with the BFF's body only, printed below the table. */
      const secondAnchors: Array<{ name: string; result: Result; anchor: Result; ratio: number }> = [];
      const runAgainst = async (
        name: string,
        opts: autocannon.Options,
        anchorOpts: autocannon.Options,
        secondAnchorOpts?: autocannon.Options,
      ) => {
        const rounds: Array<{ result: Result; anchor: Result; ratio: number; second?: Result }> = [];
        for (let round = 0; round < ROUNDS; round++) {
          const result = await measure(opts);
          const anchor = await measure(anchorOpts);
          const second = secondAnchorOpts ? await measure(secondAnchorOpts) : undefined;
          rounds.push({
            result,
            anchor,
            second,
            ratio: result.requests.average / Math.max(anchor.requests.average, 0.001),
          });
        }
        rounds.sort((x, y) => x.ratio - y.ratio);
        const { second, ...median } = rounds[Math.floor(rounds.length / 2)];
        rows.push({ name, ...median });
        if (second)
          secondAnchors.push({
            name,
            result: median.result,
            anchor: second,
            ratio: median.result.requests.average / Math.max(second.requests.average, 0.001),
          });
      };
      for (const [label, { url, etag, bytes, barePath }] of Object.entries(reads)) {
        if (ONLY === 'bff') break;
        await runAgainst(
          `read 200, ${label} (${Math.round(bytes / 1024)} KB)`,
          { url, headers: publicHeaders },
          { url: `${bareUrl}${barePath}` },
        );
        await runAgainst(
          `read 304, ${label}`,
          { url, headers: { ...publicHeaders, 'if-none-match': etag } },
          { url: `${bareUrl}/read-304` },
        );
      }
      // The BFF's cache: reads it answers itself (a kept 200, its own 304), next to the same anchor.
      const bffConnections = Number(process.env.BENCH_BFF_CONNECTIONS ?? 100);
      {
        const { id, token: shareToken } = projects['1 model'];
        const { etag, bytes, barePath } = reads['1 model'];
        const url = `${bffUrl}/share/${id}/${shareToken}`;
        const conditional = { 'if-none-match': etag };
        await runAgainst(
          `BFF cache hit 200, 1 model (${Math.round(bytes / 1024)} KB), ${bffConnections} conn.`,
          { url, connections: bffConnections },
          { url: `${bareUrl}/bff`, connections: bffConnections },
          { url: `${bareUrl}${barePath}`, connections: bffConnections },
        );
        await runAgainst(
          `BFF 304, 1 model, ${bffConnections} conn.`,
          { url, headers: conditional, connections: bffConnections },
          { url: `${bareUrl}/bff`, headers: conditional, connections: bffConnections },
          { url: `${bareUrl}/read-304`, headers: conditional, connections: bffConnections },
        );
      }
      const { id, token: shareToken } = projects['1 model'];
      if (ONLY !== 'bff')
        await run('submit acknowledgement', {
          url: `${api}/share/${id}/${shareToken}/submit`,
          method: 'POST',
          headers: { ...publicHeaders, 'content-type': 'application/json' },
          body: JSON.stringify({
            formData: { email: 'shopper@example.com' },
            selectedOptions: { colour: 'red' },
            configurationSummary: 'Red chair',
            screenshots: [],
          }),
        });

      console.log(
        `\nconnections=${CONNECTIONS} duration=${DURATION}s per measurement; reads: median of ${ROUNDS} ` +
          `alternating rounds with their anchor\n`,
      );
      console.log(
        '| scenario | req/s | p50 ms | p99 ms | non-2xx/3xx | errors | bare Fastify, same bytes: req/s (p99 ms) | ' +
          'server / bare |',
      );
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
      for (const { name, result, anchor } of rows) {
        const anchorCells = anchor
          ? `${Math.round(anchor.requests.average)} (p99 ${anchor.latency.p99}) | ` +
            `${(result.requests.average / Math.max(anchor.requests.average, 0.001)).toFixed(2)}x`
          : '– | –';
        console.log(
          `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ` +
            `${unexpected(result)} | ${result.errors + result.timeouts} | ${anchorCells} |`,
        );
      }
      console.log(
        "\nThe BFF rows' anchor is bare Fastify giving the BFF's own answer (status, every header, body; 304 " +
          'when If-None-Match names the ETag). Next to bare Fastify with the body and ETag only:',
      );
      for (const { name, anchor, ratio } of secondAnchors)
        console.log(
          `- ${name}: bare Fastify, body only ${Math.round(anchor.requests.average)} req/s (p99 ` +
            `${anchor.latency.p99} ms): ${ratio.toFixed(2)}x`,
        );
      // A figure measured on refusals (503s, 400s) measures nothing: say so and fail. The anchors too.
      const anchors = new Map(
        rows.flatMap(({ name, anchor }) => (anchor ? [[anchor, `bare Fastify for ${name}`] as const] : [])),
      );
      const measured = [...rows, ...[...anchors].map(([result, name]) => ({ name, result }))];
      const failed = measured.filter(({ result }) => unexpected(result) > 0 || result.errors + result.timeouts > 0);
      for (const { name, result } of failed)
        console.error(`\n${name}: answers other than 2xx/3xx or errors: ${JSON.stringify(result.statusCodeStats)}`);
      if (failed.length > 0) process.exitCode = 1;
      const p99 = (name: string) => rows.find((r) => r.name.startsWith(name))!.result.latency.p99;
      if (ONLY === 'bff') return;
      console.log(
        `\n304 p99, 500 models / 1 model: ${(p99('read 304, 500') / Math.max(p99('read 304, 1'), 0.001)).toFixed(2)}x`,
      );
      console.log(
        `submit ack p99 / read 200 p99 (1 model): ${(p99('submit') / Math.max(p99('read 200, 1'), 0.001)).toFixed(2)}x`,
      );
    }

    if (!ELEMENT_ONLY) {
      await scaleOutRows(`/share/${projects['1 model'].id}/${projects['1 model'].token}`);
      printWebhooks(
        await benchWebhooks({
          env,
          db,
          workspaceId: person.defaultWorkspaceId!,
          api,
          ownerHeaders: owner,
          rounds: ROUNDS,
        }),
      );
      printLibraries(await benchLibraries({ env, token }));
      printModelOutline(await benchModelOutline());
      await visitorEventRows();
      await cartRows();
      if (!printAnalytics(await benchAnalytics({ api, db, ownerHeaders: owner }))) process.exitCode = 1;
    }

    // The element in a real Chromium: its loader's size, and its first frame next to model-viewer alone.
    await ensureElementBuilt((line) => console.error(line));
    const element = await measureElement({ apiUrl: api, bffUrl, ownerHeaders: owner });
    console.log('\n| element | figure | anchor | ratio |');
    console.log('|---|---:|---:|---:|');
    console.log(`| loader, gzip | ${(element.loaderGzipBytes / 1024).toFixed(1)} KB | goal 15 KB | – |`);
    console.log(
      `| first frame of one GLB (median of ${element.rounds}, cold cache) | ` +
        `${Math.round(element.elementFirstFrameMs)} ms | model-viewer alone: ` +
        `${Math.round(element.modelViewerFirstFrameMs)} ms | ` +
        `${(element.elementFirstFrameMs / element.modelViewerFirstFrameMs).toFixed(2)}x |`,
    );
    console.log(
      `\nfirst frames, ms: element ${element.elementSamples.map(Math.round).join(', ')}; model-viewer ` +
        `${element.modelViewerSamples.map(Math.round).join(', ')}`,
    );
    if (!ELEMENT_ONLY) {
      printOptionChange(await measureOptionChange({ apiUrl: api, bffUrl, ownerHeaders: owner }));
      await previewRows();
      await deliveryRows();
      printStartup(await benchStartup({ env, rounds: ROUNDS }));
    }
  } finally {
    for (const started of [child, bare, bff]) {
      if (!started || started.exitCode !== null) continue;
      started.kill('SIGTERM');
      await new Promise((r) => started.once('exit', r));
    }
    await db.$client.end();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await rm(storageDir, { recursive: true, force: true });
  }
}

await main();
