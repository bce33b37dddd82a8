/**
 * Visitor events (docs/commands.md, Benchmarks): calls of 20 events through the BFF, recorded, delivered and counted,
 * next to the public read through it; the analytics read over 1,000,000 events (p95, 30 and 366 days) next to
 * GET /projects/:id.
 */
import autocannon, { type Result } from 'autocannon';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Db } from '#core/platform/db/client.js';
import { STOOL_SCENE } from '../helpers/stool-scene.js';
import { cpuMsOf } from './process-cpu.js';

const EVENTS_PER_CALL = 20;
/** The goals of docs/commands.md, Benchmarks. */
const EVENTS_GOAL = 5000;
const ANALYTICS_GOAL_MS = 20;
/** Reads per analytics measurement (BENCH_ANALYTICS_READS). */
const READS = Number(process.env.BENCH_ANALYTICS_READS ?? 200);
const SEEDED_EVENTS = 1_000_000;
/** Other projects whose counters share the tables (the read must not scan them). */
const OTHER_PROJECTS = 20;
const DAYS = 366;
const SHARDS = 8;

interface Share {
  id: string;
  token: string;
}

async function stoolShare(api: string, ownerHeaders: Record<string, string>, name: string): Promise<Share> {
  const created = await (
    await fetch(`${api}/projects`, {
      method: 'POST',
      headers: ownerHeaders,
      body: JSON.stringify({ name, type: 'configurator', data: { models: [], sceneData: STOOL_SCENE } }),
    })
  ).json();
  const enabled = await fetch(`${api}/projects/${created.project.id}/share/enable`, {
    method: 'POST',
    headers: { authorization: ownerHeaders.authorization },
  });
  const shared = await enabled.json();
  if (!enabled.ok) throw new Error(`bench: enabling a share answered ${enabled.status} ${JSON.stringify(shared)}`);
  return { id: created.project.id, token: shared.settings.shareToken };
}

/** Answers other than 2xx/3xx, and transport errors. */
function failures(result: Result): number {
  const refused = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !/^[23]/.test(code))
    .reduce((n, [, stats]) => n + (stats as { count: number }).count, 0);
  return refused + result.errors + result.timeouts;
}

export interface VisitorEventsBenchResult {
  eventsPerSecond: number;
  callP99Ms: number;
  readPerSecond: number;
  readP99Ms: number;
  ratio: number;
  rounds: number;
  /** Deliveries recorded for the subscribed webhook, against the events the server accepted. */
  deliveries: number;
  accepted: number;
  failures: number;
  /** CPU µs (user + system) per events call of the server and the BFF, over every measured events run. */
  serverCpuUsPerCall: number;
  bffCpuUsPerCall: number;
  /** The Postgres backends of this run's database (their process title names it). */
  postgresCpuUsPerCall: number;
}

/**
 * This run's process (its tsx wrapper too) listening on `url`'s port, told apart from other benches on the machine
 * by the port variable in its environment.
 */
function listeningOn(url: string, script: string, portVariable: string) {
  const wanted = `${portVariable}=${new URL(url).port}`;
  return (commandLine: string, pid: string) => {
    if (!commandLine.includes(script)) return false;
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(wanted);
  };
}

export async function benchVisitorEvents(options: {
  api: string;
  bffUrl: string;
  db: Db;
  ownerHeaders: Record<string, string>;
  connections: number;
  duration: number;
  rounds: number;
}): Promise<VisitorEventsBenchResult> {
  const { api, bffUrl, db, ownerHeaders, connections, duration, rounds } = options;
  const share = await stoolShare(api, ownerHeaders, 'visitor events');
  // One subscribed webhook; the worker is not running, so the bench measures recording and
  // fan-out (event, delivery and outbox rows, counters), not sending (the webhook rows do).
  const hook = await fetch(`${api}/projects/${share.id}/webhooks/visitors`, {
    method: 'PUT',
    headers: ownerHeaders,
    body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['option.changed'] }),
  });
  if (hook.status !== 201) throw new Error(`bench: the webhook was refused (${hook.status})`);

  const at = new Date().toISOString();
  const events = Array.from({ length: EVENTS_PER_CALL }, (_, i) => {
    const [choiceId, previousChoiceId] = i % 2 === 0 ? ['walnut', 'oak'] : ['oak', 'walnut'];
    const options = { seat: choiceId, legs: 'steel' };
    return {
      type: 'option.changed',
      at,
      data: { blockId: 'seat', choiceId, previousChoiceId, source: 'visitor', options },
    };
  });
  const eventsUrl = `${bffUrl}/share/${share.id}/${share.token}/events`;
  const readUrl = `${bffUrl}/share/${share.id}/${share.token}`;
  const eventsOptions: autocannon.Options = {
    url: eventsUrl,
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://shop.example' },
    // A session per call, as pages send them.
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ sessionId: randomBytes(16).toString('base64url'), events }),
        }),
      },
    ],
  };
  const measure = async (opts: autocannon.Options) => {
    await autocannon({ connections, duration: 1, ...opts });
    return autocannon({ connections, duration, ...opts });
  };
  const server = listeningOn(api, 'server/main.ts', 'PORT');
  const bff = listeningOn(bffUrl, 'bff/main.ts', 'BFF_PORT');
  const database = (await db.$client.query<{ name: string }>('select current_database() as name')).rows[0].name;
  const postgres = (commandLine: string) =>
    commandLine.startsWith('postgres: ') && commandLine.includes(` ${database} `);
  let serverCpuMs = 0;
  let bffCpuMs = 0;
  let postgresCpuMs = 0;
  let measuredCalls = 0;

  const results: Array<{ calls: Result; read: Result; ratio: number }> = [];
  for (let round = 0; round < rounds; round++) {
    await autocannon({ connections, duration: 1, ...eventsOptions });
    const serverBefore = cpuMsOf(server);
    const bffBefore = cpuMsOf(bff);
    const postgresBefore = cpuMsOf(postgres);
    const calls = await autocannon({ connections, duration, ...eventsOptions });
    serverCpuMs += cpuMsOf(server) - serverBefore;
    bffCpuMs += cpuMsOf(bff) - bffBefore;
    postgresCpuMs += cpuMsOf(postgres) - postgresBefore;
    measuredCalls += calls.requests.total;
    const read = await measure({ url: readUrl });
    const eventsPerSecond = calls.requests.average * EVENTS_PER_CALL;
    results.push({ calls, read, ratio: eventsPerSecond / Math.max(read.requests.average, 0.001) });
  }
  results.sort((x, y) => x.ratio - y.ratio);
  const median = results[Math.floor(results.length / 2)];
  const counted = await db.$client.query<{ accepted: string; deliveries: string }>(
    `select (select count(*) from project_events where project_id = $1 and type = 'option.changed') as accepted,
            (select count(*) from webhook_deliveries where project_id = $1) as deliveries`,
    [share.id],
  );
  return {
    eventsPerSecond: median.calls.requests.average * EVENTS_PER_CALL,
    callP99Ms: median.calls.latency.p99,
    readPerSecond: median.read.requests.average,
    readP99Ms: median.read.latency.p99,
    ratio: median.ratio,
    rounds,
    accepted: Number(counted.rows[0].accepted),
    deliveries: Number(counted.rows[0].deliveries),
    failures: results.reduce((n, r) => n + failures(r.calls) + failures(r.read), 0),
    serverCpuUsPerCall: (serverCpuMs * 1000) / Math.max(measuredCalls, 1),
    bffCpuUsPerCall: (bffCpuMs * 1000) / Math.max(measuredCalls, 1),
    postgresCpuUsPerCall: (postgresCpuMs * 1000) / Math.max(measuredCalls, 1),
  };
}

export function printVisitorEvents(result: VisitorEventsBenchResult): boolean {
  console.log(
    `\nvisitor events through the BFF (${EVENTS_PER_CALL} option.changed per call, one subscribed webhook, ` +
      `median of ${result.rounds} alternating rounds)\n`,
  );
  console.log('| scenario | figure | anchor: public read through the BFF | events/s per read/s | goal |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| events recorded with their delivery | ${Math.round(result.eventsPerSecond)} events/s (p99 ` +
      `${result.callP99Ms} ms per call) | ${Math.round(result.readPerSecond)} req/s (p99 ${result.readP99Ms} ms) | ` +
      `${result.ratio.toFixed(2)} | ≥ ${EVENTS_GOAL} events/s |`,
  );
  console.log(
    `\n${result.deliveries} deliveries recorded for ${result.accepted} option.changed events accepted ` +
      '(one per event; the worker was not running).',
  );
  console.log(
    `CPU per events call (user + system, /proc, all rounds): server ${Math.round(result.serverCpuUsPerCall)} µs, ` +
      `BFF ${Math.round(result.bffCpuUsPerCall)} µs, Postgres backends ${Math.round(result.postgresCpuUsPerCall)} µs.`,
  );
  const ok = result.failures === 0 && result.deliveries === result.accepted;
  if (!ok) console.error(`\nvisitor events: ${result.failures} failed calls or reads, or deliveries missing`);
  return ok;
}

/** Percentile of sorted samples. */
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

async function timedReads(url: string, headers: Record<string, string>) {
  const samples: number[] = [];
  for (let i = 0; i < READS + 10; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`bench: ${url} answered ${res.status}`);
    // The first ten warm the connection and the JIT.
    if (i >= 10) samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

/**
 * 1,000,000 events as the writers and the hourly sweep leave them (past days folded, today in 8 shards, month rows
 * beside), for OTHER_PROJECTS projects too, so the read meets the rows production has.
 */
async function seedCounters(db: Db, projectIds: readonly string[]) {
  // Per day and shard: views + option changes + animations + AR + saves = events.
  const perShard = Math.round(SEEDED_EVENTS / DAYS / SHARDS);
  const views = Math.round(perShard * 0.2);
  const changes = perShard - views - 6;
  // Today: one row per shard, each 1/SHARDS of the day; a past day: one row holding all.
  const rows = `current_date - d as day, s as shard, case when d = 0 then 1 else ${SHARDS} end as n
     from unnest($1::uuid[]) p, generate_series(0, ${DAYS - 1}) d, generate_series(0, ${SHARDS - 1}) s
     where d = 0 or s = 0`;
  await db.$client.query(
    `insert into visitor_day_counters
       (project_id, day, shard, views, sessions, option_changes, submissions, animations, ar_opens, saves)
     select p, day, shard, $2::int * n, 20 * n, $3::int * n, n, 2 * n, 2 * n, 2 * n
     from (select p, ${rows}) r`,
    [projectIds, views, changes],
  );
  // The day's option changes spread over 10 blocks of 10 choices.
  await db.$client.query(
    `insert into visitor_choice_counters (project_id, day, shard, block_id, choice_id, count)
     select p, day, shard, 'block-' || b, 'choice-' || c, greatest(1, ($2::int / 100) + b - c) * n
     from (select p, ${rows}) r, generate_series(0, 9) b, generate_series(0, 9) c`,
    [projectIds, changes],
  );
  // The month rows the writers keep beside the day rows: past months folded, this month in shards.
  await db.$client.query(
    `insert into visitor_choice_months (project_id, month, shard, block_id, choice_id, count)
     select project_id, date_trunc('month', day)::date as month,
       case when day >= date_trunc('month', current_date) then (hashtext(day::text) & 7) else 0 end as shard,
       block_id, choice_id, sum(count)
     from visitor_choice_counters where project_id = any ($1::uuid[]) group by 1, 2, 3, 4, 5`,
    [projectIds],
  );
  // Past days' rows no longer change once folded: autovacuum marks their pages all-visible, as here.
  await db.$client.query('vacuum (analyze) visitor_day_counters, visitor_choice_counters, visitor_choice_months');
  return perShard * SHARDS * DAYS;
}

export interface AnalyticsBenchResult {
  events: number;
  rows: Array<{ days: number; p50: number; p95: number }>;
  anchor: { p50: number; p95: number };
  reads: number;
}

export async function benchAnalytics(options: {
  api: string;
  db: Db;
  ownerHeaders: Record<string, string>;
}): Promise<AnalyticsBenchResult> {
  const { api, db, ownerHeaders } = options;
  const measured = await stoolShare(api, ownerHeaders, 'analytics');
  const others = await Promise.all(
    Array.from({ length: OTHER_PROJECTS }, (_, i) => stoolShare(api, ownerHeaders, `analytics ${i}`)),
  );
  const events = await seedCounters(db, [measured.id, ...others.map((o) => o.id)]);
  const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600_000).toISOString().slice(0, 10);
  const headers = { authorization: ownerHeaders.authorization };
  const rows = [];
  for (const days of [30, DAYS]) {
    const url = `${api}/projects/${measured.id}/analytics?from=${day(1 - days)}&to=${day(0)}&top=10`;
    rows.push({ days, ...(await timedReads(url, headers)) });
  }
  const anchor = await timedReads(`${api}/projects/${measured.id}`, headers);
  return { events, rows, anchor, reads: READS };
}

export function printAnalytics(result: AnalyticsBenchResult): boolean {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `\nanalytics read (GET /projects/:id/analytics, top 10) over ${result.events.toLocaleString('en')} counted ` +
      `events (past days folded by the sweep, today in shards; plus ${OTHER_PROJECTS} other projects as busy), ` +
      `${result.reads} sequential reads each\n`,
  );
  console.log('| range | p50 | p95 | anchor: GET /projects/:id p50 / p95 | p95 ratio | goal |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of result.rows)
    console.log(
      `| ${row.days} days | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(result.anchor.p50)} / ${ms(result.anchor.p95)} | ` +
        `${(row.p95 / result.anchor.p95).toFixed(2)}x | p95 ≤ ${ANALYTICS_GOAL_MS} ms |`,
    );
  return true;
}
